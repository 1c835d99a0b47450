import { Injectable } from '@nestjs/common';
import { DomainEvent } from '@paygrid/contracts';
import { Executor } from '@paygrid/platform';
import { fanOutCandidatesOf, SealedCandidateRow } from '../endpoints/endpoint.repository';

/** An event to store, with the topic it came from and its delivery body (webhook-body.ts). */
export interface StoredEventRow {
  event: DomainEvent;
  topic: string;
  body: string;
}

/**
 * All SQL of webhook_events: every event the dispatcher received, stored once with its delivery body
 * (serialised once, by the intake). A whole intake chunk is claimed and inserted in one statement.
 */
@Injectable()
export class EventRepository {
  /**
   * Claims the events in `consumer`'s inbox (architecture rule 4) and inserts those it claimed, in one
   * statement; answers the claimed ids (the others were stored before: Kafka redelivered them), each with
   * the endpoints that may receive it (fanOutCandidatesOf, read by the same statement once per account
   * of the chunk: one round trip fewer per chunk). Every claimed event comes back, with `[]` if none.
   * `events` holds each event id once; `body` is serializeWebhookBody(event), computed once by the caller.
   */
  async claimAndInsert(
    executor: Executor,
    consumer: string,
    events: StoredEventRow[],
  ): Promise<Map<string, SealedCandidateRow[]>> {
    if (events.length === 0) return new Map();
    const column = <T>(pick: (item: StoredEventRow) => T) => events.map(pick);
    const inserted: { event_id: string; endpoints: SealedCandidateRow[] }[] = await executor.query(
      `WITH claimed AS (
         INSERT INTO inbox (consumer, event_id) SELECT $1, id FROM unnest($2::text[]) AS batch(id)
         ON CONFLICT DO NOTHING RETURNING event_id),
       stored AS (
         INSERT INTO webhook_events
           (event_id, event_name, event_type, source_id, account_id, master_account_id, topic, created_at, body)
         SELECT t.* FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                                $9::timestamptz[], $10::text[])
           AS t(event_id, event_name, event_type, source_id, account_id, master_account_id, topic, created_at, body)
         WHERE t.event_id IN (SELECT event_id FROM claimed)
         RETURNING event_id, account_id, master_account_id),
       audiences AS (
         SELECT a.account_id, a.master_account_id, ${fanOutCandidatesOf('a')} AS endpoints
           FROM (SELECT DISTINCT account_id, master_account_id FROM stored) a)
       SELECT s.event_id, COALESCE(a.endpoints, '[]'::jsonb) AS endpoints
         FROM stored s
         LEFT JOIN audiences a ON a.account_id = s.account_id AND a.master_account_id = s.master_account_id`,
      [
        consumer,
        column(({ event }) => event.event_id),
        column(({ event }) => event.event_name),
        column(({ event }) => event.event_type),
        column(({ event }) => event.source_id),
        column(({ event }) => event.account_id),
        column(({ event }) => event.master_account_id),
        column(({ topic }) => topic),
        column(({ event }) => event.create_time),
        column(({ body }) => body),
      ],
    );
    return new Map(inserted.map((row) => [row.event_id, row.endpoints]));
  }
}
