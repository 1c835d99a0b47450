import { envelopeA, Errors } from '@paygrid/platform';
import { AggregateNotFoundError, TransitionRefusedError } from '@paygrid/state-machine';

/**
 * The refusals of the acquiring service, all envelope A. Another account's object is reported exactly
 * like a missing one (decisions §1), so "not found" never tells whether an id exists elsewhere.
 */
export type AcquiringResource = 'payment_intent' | 'payment_attempt' | 'refund' | 'customer' | 'saved_card';

export const AcquiringErrors = {
  notFound: (resource: AcquiringResource) => Errors.resourceNotFound(resource),
  /** A guarded transition refused: the message names the current status. */
  unexpectedState: (message: string) => envelopeA('invalid_request_error', 'payment_intent_unexpected_state', message),
  invalidCard: (code: 'invalid_number' | 'invalid_expiry_date' | 'invalid_cvc', message: string) =>
    envelopeA('card_error', code, message),
  refundExceedsCaptured: (available: string, currency: string) =>
    envelopeA(
      'invalid_request_error',
      'refund_amount_exceeds_captured',
      `amount: exceeds what is left to refund on this payment (${available} ${currency})`,
    ),
  captureExceedsAuthorized: (authorized: string, currency: string) =>
    envelopeA('invalid_request_error', 'invalid_request_error', `amount_to_capture: must not exceed the authorised ${authorized} ${currency}`),
  clientSecretInvalid: () =>
    envelopeA('invalid_request_error', 'client_secret_invalid', 'client_secret is unknown or has expired'),
  cardSealInvalid: () =>
    envelopeA('invalid_request_error', 'invalid_request_error', 'payment_method.card could not be read'),
  exactlyOneCard: () => Errors.invalidRequest('give exactly one of payment_method.card and saved_card_id'),
};

/** The state machines' aggregates, as the API names them. */
const RESOURCE_OF_AGGREGATE: Record<string, AcquiringResource> = {
  PaymentIntent: 'payment_intent',
  PaymentAttempt: 'payment_attempt',
  Refund: 'refund',
};

/**
 * The service's command error mapper (PlatformModule's `commandErrors`): the state-machine library's errors become API refusals (inside
 * the command's transaction, so the ledger stores them); anything else passes through.
 */
export function mapAcquiringError(error: unknown): unknown {
  if (error instanceof TransitionRefusedError) return AcquiringErrors.unexpectedState(error.message);
  if (error instanceof AggregateNotFoundError) return AcquiringErrors.notFound(RESOURCE_OF_AGGREGATE[error.aggregate] ?? 'payment_intent');
  return error;
}
