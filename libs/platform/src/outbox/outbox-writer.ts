import { randomUUID } from 'node:crypto';
import { DomainEvent, EVENT_ENVELOPE_VERSION, EventCategory, EventTopic } from '@paygrid/contracts';
import { Executor } from '../database/data-source';
import { currentCorrelationId, CORRELATION_HEADER } from '../logging/correlation';
import { traceHeaders } from '../tracing/propagation';

/**
 * Appends an event to the outbox inside the caller's transaction (architecture rule 3): the event
 * exists if and only if the state change committed. One round trip: the outbox's statement trigger
 * (outbox-notify-trigger.migration.ts) sends the NOTIFY, which Postgres delivers once per transaction at
 * commit, waking the relay at once; a rolled-back transaction notifies nobody. The row's headers carry
 * the writer's correlation id and trace context, which the relay publishes with the event.
 */
export const OUTBOX_CHANNEL = 'paygrid_outbox';

export interface NewEvent<D> {
  topic: EventTopic;
  event_name: string;
  event_type: EventCategory;
  source_id: string;
  account_id: string;
  master_account_id: string;
  data: D;
}

export async function appendToOutbox<D>(executor: Executor, event: NewEvent<D>): Promise<DomainEvent<D>> {
  const envelope: DomainEvent<D> = {
    event_id: randomUUID(),
    event_name: event.event_name,
    event_type: event.event_type,
    version: EVENT_ENVELOPE_VERSION,
    source_id: event.source_id,
    account_id: event.account_id,
    master_account_id: event.master_account_id,
    create_time: new Date().toISOString(),
    data: event.data,
  };
  const correlationId = currentCorrelationId();
  await executor.query(
    `INSERT INTO outbox (event_id, topic, message_key, payload, headers) VALUES ($1, $2, $3, $4, $5)`,
    [
      envelope.event_id,
      event.topic,
      event.source_id,
      JSON.stringify(envelope),
      JSON.stringify({
        ...(correlationId ? { [CORRELATION_HEADER]: correlationId } : {}),
        ...traceHeaders(),
      }),
    ],
  );
  return envelope;
}
