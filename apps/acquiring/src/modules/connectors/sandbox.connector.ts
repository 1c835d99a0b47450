import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AuthenticationData, ThreeDsData } from '@paygrid/contracts';
import {
  ApprovedAuthorization,
  AuthorizationResult,
  AuthorizeRequest,
  CardConnector,
  ClearingResult,
  DeclinedAuthorization,
  RefundResult,
} from './connector';

/**
 * The sandbox processor (decisions §6): outcomes are decided by the test card number alone, so every
 * merchant integration can rehearse each path. Any other valid card number is approved.
 *
 * | card                              | outcome                                                      |
 * | 4242 4242 4242 4242, 5555…4444    | approved                                                      |
 * | 4000 0000 0000 0002               | declined card_declined (advice 03)                           |
 * | 4000 0000 0000 9995               | declined insufficient_funds (advice 02)                      |
 * | 4000 0000 0000 0069               | declined expired_card (advice 01)                            |
 * | 4000 0000 0000 0127               | declined incorrect_cvc (advice 01, cvv_result N)             |
 * | 4000 0000 0000 3220               | 3-D Secure challenge, decided on the hosted challenge page   |
 * | 4000 0000 0000 0077               | pending at the processor, approved when checked later        |
 * | 4100 0000 0000 0019               | blocked as fraud: terminal failure `fraudulent`              |
 * A refund whose amount in minor units ends in 13 (1.13 USD, 213 JPY) fails with `refund_declined`.
 *
 * Deterministic and stateless: references and codes derive from the attempt or refund id, so a repeated
 * call answers the same.
 */
export const SANDBOX_CARDS = {
  approvedVisa: '4242424242424242',
  approvedMastercard: '5555555555554444',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  expiredCard: '4000000000000069',
  incorrectCvc: '4000000000000127',
  threeDsChallenge: '4000000000003220',
  asynchronous: '4000000000000077',
  fraud: '4100000000000019',
} as const;

interface Decline {
  failureCode: string;
  failureMessage: string;
  adviceCode: string;
  terminal: boolean;
  cvvResult: string;
}

const DECLINES: Record<string, Decline> = {
  [SANDBOX_CARDS.declined]: {
    failureCode: 'card_declined',
    failureMessage: 'The card was declined.',
    adviceCode: '03',
    terminal: false,
    cvvResult: 'M',
  },
  [SANDBOX_CARDS.insufficientFunds]: {
    failureCode: 'insufficient_funds',
    failureMessage: 'The card has insufficient funds.',
    adviceCode: '02',
    terminal: false,
    cvvResult: 'M',
  },
  [SANDBOX_CARDS.expiredCard]: {
    failureCode: 'expired_card',
    failureMessage: 'The card has expired.',
    adviceCode: '01',
    terminal: false,
    cvvResult: 'M',
  },
  [SANDBOX_CARDS.incorrectCvc]: {
    failureCode: 'incorrect_cvc',
    failureMessage: "The card's security code is incorrect.",
    adviceCode: '01',
    terminal: false,
    cvvResult: 'N',
  },
  [SANDBOX_CARDS.fraud]: {
    failureCode: 'fraudulent',
    failureMessage: 'The payment was blocked as fraudulent.',
    adviceCode: '03',
    terminal: true,
    cvvResult: 'M',
  },
};

/** Digits derived from an id, so references are stable across repeats. */
function digitsOf(seed: string, length: number): string {
  let out = '';
  let round = 0;
  while (out.length < length) {
    const hash = createHash('sha256').update(`${seed}:${round}`).digest();
    for (const byte of hash) out += String(byte % 10);
    round += 1;
  }
  return out.slice(0, length);
}

function authCodeOf(seed: string): string {
  return createHash('sha256').update(`auth:${seed}`).digest('hex').slice(0, 6).toUpperCase();
}

function threeDs(status: 'Y' | 'N' | 'C', seed: string): ThreeDsData {
  return {
    ds_transaction_id: uuidFrom(seed),
    three_ds_version: '2.2.0',
    eci: status === 'Y' ? '05' : status === 'N' ? '07' : '',
    cavv: status === 'Y' ? createHash('sha1').update(`cavv:${seed}`).digest('base64') : '',
    three_ds_authentication_status: status,
    three_ds_cancellation_reason: status === 'N' ? '01' : '',
  };
}

/** A uuid-shaped id derived from a seed (the sandbox's directory-server transaction id). */
function uuidFrom(seed: string): string {
  const hex = createHash('sha256').update(`ds:${seed}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

@Injectable()
export class SandboxConnector implements CardConnector {
  readonly name = 'sandbox';

  async authorize(request: AuthorizeRequest): Promise<AuthorizationResult> {
    const reference = `sbx_${request.attemptId}`;
    const number = request.card.number;
    const cvvResult = request.card.cvc === null ? 'P' : 'M';
    const authentication = (three: ThreeDsData | null, cvv = cvvResult): AuthenticationData => ({
      avs_result: 'Y',
      cvv_result: cvv,
      three_ds: three,
    });

    const decline = DECLINES[number];
    if (decline) {
      return {
        kind: 'declined',
        processorReference: reference,
        failureCode: decline.failureCode,
        failureMessage: decline.failureMessage,
        adviceCode: decline.adviceCode,
        terminal: decline.terminal,
        authenticationData: authentication(null, request.card.cvc === null ? 'P' : decline.cvvResult),
      };
    }
    if (number === SANDBOX_CARDS.threeDsChallenge) {
      return { kind: 'challenge', processorReference: reference, authenticationData: authentication(threeDs('C', reference)) };
    }
    if (number === SANDBOX_CARDS.asynchronous) {
      return { kind: 'pending', processorReference: reference, authenticationData: authentication(null) };
    }
    return this.approved(reference, request.capture, authentication(request.enforceThreeDs ? threeDs('Y', reference) : null));
  }

  async completeAuthentication(request: {
    processorReference: string;
    approved: boolean;
    capture: boolean;
    previous: AuthenticationData;
  }): Promise<ApprovedAuthorization | DeclinedAuthorization> {
    const reference = request.processorReference;
    if (request.approved) {
      return this.approved(reference, request.capture, { ...request.previous, three_ds: threeDs('Y', reference) });
    }
    return {
      kind: 'declined',
      processorReference: reference,
      failureCode: 'authentication_failed',
      failureMessage: 'The shopper failed 3-D Secure authentication.',
      adviceCode: '',
      terminal: false,
      authenticationData: { ...request.previous, three_ds: threeDs('N', reference) },
    };
  }

  async checkAuthorization(request: {
    processorReference: string;
    capture: boolean;
    previous: AuthenticationData;
  }): Promise<AuthorizationResult> {
    return this.approved(request.processorReference, request.capture, request.previous);
  }

  async clear(request: { processorReference: string; attemptId: string }): Promise<ClearingResult> {
    return { arn: digitsOf(`arn:${request.attemptId}`, 23) };
  }

  async void(): Promise<void> {
    // Nothing is held in the sandbox; a real connector releases the authorisation here.
  }

  async refund(request: { refundId: string; amountMinor: bigint }): Promise<RefundResult> {
    const failed = request.amountMinor % 100n === 13n;
    return {
      outcome: failed ? 'failed' : 'succeeded',
      processorReference: `sbx_${request.refundId}`,
      failureCode: failed ? 'refund_declined' : '',
    };
  }

  private approved(reference: string, capture: boolean, authenticationData: AuthenticationData): ApprovedAuthorization {
    return {
      kind: 'approved',
      captured: capture,
      processorReference: reference,
      authCode: authCodeOf(reference),
      rrn: digitsOf(`rrn:${reference}`, 12),
      authenticationData,
    };
  }
}
