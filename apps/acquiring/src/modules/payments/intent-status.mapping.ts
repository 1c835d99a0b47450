import { AttemptStatus, IntentStatus } from '@paygrid/contracts';
import { PaymentAttempt, PaymentIntent, TERMINAL_FAILURE_CODES } from './payment.types';

/**
 * The one place that says what an intent's status is (decisions §7): derived from its latest attempt,
 * hyperswitch-style. The switch is exhaustive over AttemptStatus (a new attempt status does not compile
 * until it is mapped). Two facts live on the intent itself: it was cancelled (which voids any live
 * attempt), or it has no attempt yet.
 */
export function deriveIntentStatus(
  intent: Pick<PaymentIntent, 'cancelledAt'>,
  latest: Pick<PaymentAttempt, 'status' | 'failureCode'> | null,
): IntentStatus {
  if (intent.cancelledAt !== null) return 'CANCELLED';
  if (latest === null) return 'REQUIRES_PAYMENT_METHOD';
  return intentStatusOfAttempt(latest.status, latest.failureCode);
}

export function intentStatusOfAttempt(status: AttemptStatus, failureCode: string): IntentStatus {
  switch (status) {
    case 'INITIATED':
    case 'PENDING_AUTHORIZATION':
      return 'PENDING';
    case 'AUTHENTICATION_REDIRECTED':
      return 'REQUIRES_CUSTOMER_ACTION';
    case 'AUTHORIZED':
      return 'REQUIRES_CAPTURE';
    case 'CAPTURE_REQUESTED':
    case 'SETTLED':
      return 'SUCCEEDED';
    case 'CANCELLED':
      return 'CANCELLED';
    case 'EXPIRED':
      return 'REQUIRES_PAYMENT_METHOD';
    case 'FAILED':
      return TERMINAL_FAILURE_CODES.has(failureCode) ? 'FAILED' : 'REQUIRES_PAYMENT_METHOD';
    default:
      return unmapped(status);
  }
}

function unmapped(status: never): never {
  throw new Error(`attempt status ${String(status)} has no intent status`);
}
