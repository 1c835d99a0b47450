import { AuthenticationData } from '@paygrid/contracts';

/**
 * What the acquiring service needs from a card processor, so a real acquirer can replace the sandbox
 * without touching the payment flows. Every call is made outside any database transaction (the flows
 * record intent first and apply the outcome after), and every call is safe to repeat with the same
 * reference: a real connector passes the attempt or refund id as the processor's idempotency key.
 */
export const CARD_CONNECTOR = Symbol('CARD_CONNECTOR');

export interface PlainCard {
  /** Digits only, validated (length, Luhn). Lives in memory for one request, never stored or logged. */
  number: string;
  /** Null for a saved card (card on file is charged without its CVC). */
  cvc: string | null;
  expiryMonth: string;
  expiryYear: string;
}

export interface AuthorizeRequest {
  attemptId: string;
  amountMinor: bigint;
  currency: string;
  card: PlainCard;
  /** Authorise and capture in one step (auto_capture), or authorise only. */
  capture: boolean;
  enforceThreeDs: boolean;
}

export interface ApprovedAuthorization {
  kind: 'approved';
  captured: boolean;
  processorReference: string;
  authCode: string;
  rrn: string;
  authenticationData: AuthenticationData;
}
export interface DeclinedAuthorization {
  kind: 'declined';
  processorReference: string;
  failureCode: string;
  failureMessage: string;
  adviceCode: string;
  /** A fraud block ends the payment; any other decline lets the shopper try another card. */
  terminal: boolean;
  authenticationData: AuthenticationData;
}
export interface ChallengeAuthorization {
  kind: 'challenge';
  processorReference: string;
  authenticationData: AuthenticationData;
}
export interface PendingAuthorization {
  kind: 'pending';
  processorReference: string;
  authenticationData: AuthenticationData;
}
export type AuthorizationResult =
  | ApprovedAuthorization
  | DeclinedAuthorization
  | ChallengeAuthorization
  | PendingAuthorization;

export interface ClearingResult {
  arn: string;
}

export interface RefundResult {
  outcome: 'succeeded' | 'failed';
  processorReference: string;
  failureCode: string;
}

export interface CardConnector {
  readonly name: string;
  authorize(request: AuthorizeRequest): Promise<AuthorizationResult>;
  /** The shopper finished (or failed) the 3-D Secure challenge of an authorisation. */
  completeAuthentication(request: {
    processorReference: string;
    approved: boolean;
    capture: boolean;
    previous: AuthenticationData;
  }): Promise<ApprovedAuthorization | DeclinedAuthorization>;
  /** Final answer for an authorisation that was pending at the processor. */
  checkAuthorization(request: {
    processorReference: string;
    capture: boolean;
    previous: AuthenticationData;
  }): Promise<AuthorizationResult>;
  /** Submits a captured amount for clearing (the settlement run). */
  clear(request: { processorReference: string; attemptId: string; amountMinor: bigint; currency: string }): Promise<ClearingResult>;
  /** Releases an authorisation that will never be captured. */
  void(request: { processorReference: string; attemptId: string }): Promise<void>;
  refund(request: { processorReference: string; refundId: string; amountMinor: bigint; currency: string }): Promise<RefundResult>;
}
