import { Injectable } from '@nestjs/common';
import { DomainEvent } from '@paygrid/contracts';
import { Executor } from '@paygrid/platform';
import { serializeWebhookBody } from './webhook-body';

/**
 * All SQL of webhook_events: every event the dispatcher received, stored once with its delivery body
 * serialised once. Inserts a whole intake chunk in one statement.
 */
@Injectable()
export class EventRepository {
  async insertMany(executor: Executor, events: { event: DomainEvent; topic: string }[]): Promise<void> {
    if (events.length === 0) return;
    const column = <T>(pick: (item: { event: DomainEvent; topic: string }) => T) => events.map(pick);
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
        column(({ event }) => serializeWebhookBody(event)),
      ],
    );
  }
}
