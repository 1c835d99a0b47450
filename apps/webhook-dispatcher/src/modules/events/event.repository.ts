import { Injectable } from '@nestjs/common';
import { DomainEvent } from '@paygrid/contracts';
import { Executor } from '@paygrid/platform';

/** An event to store, with the topic it came from and its delivery body (webhook-body.ts). */
export interface StoredEventRow {
  event: DomainEvent;
  topic: string;
  body: string;
}

/**
 * All SQL of webhook_events: every event the dispatcher received, stored once with its delivery body
 * (serialised once, by the intake). Inserts a whole intake chunk in one statement.
 */
@Injectable()
export class EventRepository {
  /** `body` is the event's delivery body, serializeWebhookBody(event), computed once by the caller. */
  async insertMany(executor: Executor, events: StoredEventRow[]): Promise<void> {
    if (events.length === 0) return;
    const column = <T>(pick: (item: StoredEventRow) => T) => events.map(pick);
    await executor.query(
      `INSERT INTO webhook_events
         (event_id, event_name, event_type, source_id, account_id, master_account_id, topic, envelope, created_at, body)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                            $8::jsonb[], $9::timestamptz[], $10::text[])`,
      [
        column(({ event }) => event.event_id),
        column(({ event }) => event.event_name),
        column(({ event }) => event.event_type),
        column(({ event }) => event.source_id),
        column(({ event }) => event.account_id),
        column(({ event }) => event.master_account_id),
        column(({ topic }) => topic),
        column(({ event }) => JSON.stringify(event)),
        column(({ event }) => event.create_time),
        column(({ body }) => body),
      ],
    );
  }
}
