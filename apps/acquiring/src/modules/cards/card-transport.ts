import { Inject, Injectable } from '@nestjs/common';
import { CardSealError, openCardSecrets } from '@paygrid/card-crypto';
import {
  Billing,
  CARD_NUMBER_PROBLEMS,
  cardBrandOf,
  cardNumberProblem,
  cvcProblem,
  maskCardNumber,
  normaliseCardNumber,
  SealedCard,
  ThreeDsAction,
} from '@paygrid/contracts';
import { ACQUIRING_CONFIG, AcquiringConfig } from '../../config';
import { AcquiringErrors } from '../../common/acquiring-errors';
import { PlainCard } from '../connectors/connector';
import { StoredCard } from '../payments/payment.types';
import { isExpired } from './card-expiry';

/**
 * Opens the card sealed by the gateway (CARD_TRANSPORT_KEY) and checks it before anything else happens:
 * a number that is not 13–19 digits of its brand's length or fails Luhn, a CVC of the wrong length or a
 * past expiry is a 400 card_error and nothing is recorded (decisions §6); the expiry's form was checked
 * with the payload (SealedCard). Returns the card in memory for
 * the processor and its masked form for storage; the number and CVC go no further.
 */
export interface CardForPayment {
  plain: PlainCard;
  stored: StoredCard;
  autoCapture: boolean;
  threeDsAction: ThreeDsAction | null;
}

@Injectable()
export class CardTransport {
  private readonly key: Buffer;

  constructor(@Inject(ACQUIRING_CONFIG) config: Pick<AcquiringConfig, 'CARD_TRANSPORT_KEY'>) {
    this.key = config.CARD_TRANSPORT_KEY;
  }

  open(input: SealedCard): CardForPayment {
    let secrets;
    try {
      secrets = openCardSecrets(input.sealed, this.key);
    } catch (error) {
      if (error instanceof CardSealError) throw AcquiringErrors.cardSealInvalid();
      throw error;
    }
    const number = normaliseCardNumber(secrets.card_number);
    const problem = cardNumberProblem(number);
    if (problem) {
      throw AcquiringErrors.invalidCard('invalid_number', `payment_method.card.card_number: ${CARD_NUMBER_PROBLEMS[problem]}`);
    }
    const cvc = cvcProblem(number, secrets.cvc);
    if (cvc) throw AcquiringErrors.invalidCard('invalid_cvc', `payment_method.card.cvc: ${cvc}`);
    if (isExpired(input.expiry_month, input.expiry_year)) {
      throw AcquiringErrors.invalidCard('invalid_expiry_date', 'payment_method.card: the card has expired');
    }
    return {
      plain: { number, cvc: secrets.cvc, expiryMonth: input.expiry_month, expiryYear: input.expiry_year },
      stored: storedCardOf(number, input.card_name ?? '', input.expiry_month, input.expiry_year, input.billing ?? {}),
      autoCapture: input.auto_capture ?? true,
      threeDsAction: input.three_ds_action ?? null,
    };
  }
}

export function storedCardOf(number: string, cardName: string, month: string, year: string, billing: Billing): StoredCard {
  return {
    card_name: cardName,
    card_number: maskCardNumber(number),
    brand: cardBrandOf(number),
    bin: number.slice(0, 6),
    last4: number.slice(-4),
    expiry_month: month,
    expiry_year: year,
    billing,
  };
}
