import { Injectable } from '@nestjs/common';
import { AcquiringEventName, AcquiringEvents, AttemptStatus, EventTopics, IntentStatus } from '@paygrid/contracts';
import { appendToOutbox, Executor } from '@paygrid/platform';
import { Customer } from '../customers/customer.types';
import { PaymentPresenter } from './payment.presenter';
import { PaymentAttempt, PaymentIntent } from './payment.types';

/**
 * Payment events (spec 6), appended to the outbox in the transaction of the change they announce, so
 * each is published exactly once per change. `data` is the resource as the API returns it, masked card
 * only; attempt events carry auth_code, arn, rrn, advice_code and authentication_data as spec 6 asks.
 */
export const INTENT_EVENT_OF_STATUS: Record<IntentStatus, AcquiringEventName> = {
  REQUIRES_PAYMENT_METHOD: AcquiringEvents.intentPaymentFailed,
  REQUIRES_CUSTOMER_ACTION: AcquiringEvents.intentRequiresAction,
  REQUIRES_CAPTURE: AcquiringEvents.intentRequiresCapture,
  PENDING: AcquiringEvents.intentPending,
  SUCCEEDED: AcquiringEvents.intentSucceeded,
  CANCELLED: AcquiringEvents.intentCancelled,
  FAILED: AcquiringEvents.intentFailed,
};

/** Attempt statuses with an event of their own; the others are announced by the intent's event. */
export const ATTEMPT_EVENT_OF_STATUS: Record<AttemptStatus, AcquiringEventName | null> = {
  INITIATED: AcquiringEvents.attemptCreated,
  AUTHENTICATION_REDIRECTED: null,
  PENDING_AUTHORIZATION: null,
  AUTHORIZED: AcquiringEvents.attemptAuthorized,
  CAPTURE_REQUESTED: AcquiringEvents.attemptCaptureRequested,
  SETTLED: null,
  CANCELLED: AcquiringEvents.attemptCancelled,
  EXPIRED: null,
  FAILED: AcquiringEvents.attemptFailed,
};

@Injectable()
export class PaymentEvents {
  constructor(private readonly presenter: PaymentPresenter) {}

  async intent(
    executor: Executor,
    name: AcquiringEventName,
    intent: PaymentIntent,
    attempt: PaymentAttempt | null,
    customer: Customer | null,
  ): Promise<void> {
    await appendToOutbox(executor, {
      topic: EventTopics.acquiring,
      event_name: name,
      event_type: 'ACQUIRING',
      source_id: intent.id,
      account_id: intent.accountId,
      master_account_id: intent.masterAccountId,
      data: this.presenter.intentForEvent(intent, attempt, customer),
    });
  }

  /** The attempt's own event, if its status has one. */
  async attempt(executor: Executor, intent: PaymentIntent, attempt: PaymentAttempt): Promise<void> {
    const name = ATTEMPT_EVENT_OF_STATUS[attempt.status];
    if (name === null) return;
    await appendToOutbox(executor, {
      topic: EventTopics.acquiring,
      event_name: name,
      event_type: 'ACQUIRING',
      source_id: attempt.id,
      account_id: intent.accountId,
      master_account_id: intent.masterAccountId,
      data: this.presenter.attempt(attempt),
    });
  }
}
