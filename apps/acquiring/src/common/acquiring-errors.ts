import { ApiError, envelopeA, Errors } from '@paygrid/platform';
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
};

/** Turns the state-machine library's errors into API refusals; anything else passes through. */
export function asApiError(error: unknown, resource: AcquiringResource): unknown {
  if (error instanceof TransitionRefusedError) return AcquiringErrors.unexpectedState(error.message);
  if (error instanceof AggregateNotFoundError) return AcquiringErrors.notFound(resource);
  return error;
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
