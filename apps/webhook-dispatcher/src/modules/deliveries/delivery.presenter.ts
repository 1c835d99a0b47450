import { WebhookAttemptView, WebhookDeliveryStatus, WebhookDeliveryView } from '@paygrid/contracts';
import { Attempt, DeliveryWithEvent } from './delivery.types';
import { DeliveryStatus } from './delivery.states';

/** Domain → wire: statuses and triggers in upper case like every enum of the API; times in ISO 8601. */
export function presentDelivery(delivery: DeliveryWithEvent): WebhookDeliveryView {
  return {
    delivery_id: delivery.deliveryId,
    endpoint_id: delivery.endpointId,
    account_id: delivery.accountId,
    event_id: delivery.eventId,
    event_name: delivery.eventName,
    event_type: delivery.eventType,
    event_account_id: delivery.eventAccountId,
    delivery_status: wireStatus(delivery.status),
    attempt_count: delivery.attemptCount,
    next_attempt_time: delivery.status === 'pending' ? (delivery.nextAttemptAt?.toISOString() ?? null) : null,
    last_attempt_time: delivery.lastAttemptAt?.toISOString() ?? null,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    create_time: delivery.createdAt.toISOString(),
    update_time: delivery.updatedAt.toISOString(),
    complete_time: delivery.completedAt?.toISOString() ?? null,
  };
}

export function presentAttempt(attempt: Attempt): WebhookAttemptView {
  return {
    delivery_id: attempt.deliveryId,
    endpoint_id: attempt.endpointId,
    event_id: attempt.eventId,
    attempt_number: attempt.attemptNumber,
    trigger: attempt.trigger === 'manual' ? 'MANUAL' : 'SCHEDULED',
    attempt_time: attempt.attemptedAt.toISOString(),
    status_code: attempt.statusCode,
    error: attempt.error,
    latency_ms: attempt.latencyMs,
    response_excerpt: attempt.responseExcerpt,
    succeeded: attempt.succeeded,
  };
}

export function wireStatus(status: DeliveryStatus): WebhookDeliveryStatus {
  return status.toUpperCase() as WebhookDeliveryStatus;
}

export function storedStatus(status: WebhookDeliveryStatus): DeliveryStatus {
  return status.toLowerCase() as DeliveryStatus;
}
