import { DomainEvent, WebhookBody } from '@paygrid/contracts';

/**
 * The delivery body of an event (decisions §8), with its fields in this order. Serialised once when the
 * event is stored; every attempt to every endpoint sends exactly those bytes, so a signature computed by
 * the receiver over its raw body matches whatever retry it receives.
 */
export function serializeWebhookBody(event: DomainEvent): string {
  const body: WebhookBody = {
    version: event.version,
    event_type: event.event_type,
    event_name: event.event_name,
    event_id: event.event_id,
    source_id: event.source_id,
    account_id: event.account_id,
    create_time: event.create_time,
    data: event.data,
  };
  return JSON.stringify(body);
}

/** Platform-internal events (credentials, disabled endpoints) are for operators, never for merchants. */
export function isDeliverable(event: Pick<DomainEvent, 'event_type'>): boolean {
  return event.event_type !== 'OPERATIONS';
}
