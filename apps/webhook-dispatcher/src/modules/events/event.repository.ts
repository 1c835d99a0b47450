import { Injectable } from '@nestjs/common';
import { DomainEvent } from '@paygrid/contracts';
import { Executor } from '@paygrid/platform';
import { audienceOf, fanOutCandidatesOf, SealedCandidateRow } from '../endpoints/endpoint.repository';

/** An event to store, with the topic it came from and its delivery body (webhook-body.ts). */
export interface StoredEventRow {
  event: DomainEvent;
  topic: string;
  body: string;
}

/** What claiming a chunk answers: the events it claimed, and the endpoints of their audiences (audienceOf). */
export interface ClaimedChunk {
  claimed: Set<string>;
  audiences: Map<string, SealedCandidateRow[]>;
}

/**
 * All SQL of webhook_events: every event the dispatcher received, stored once with its delivery body
 * (serialised once, by the intake). A whole intake chunk is claimed and inserted in one statement.
 */
@Injectable()
export class EventRepository {
  /**
   * Claims the events in `consumer`'s inbox (architecture rule 4) and inserts those it claimed, in one
   * statement; answers the claimed ids (the others were stored before: Kafka redelivered them) and, once
   * per audience (account and master) of the claimed events, the endpoints that may receive them
   * (fanOutCandidatesOf, read by the same statement: one round trip fewer per chunk). `events` holds each
   * event id once; `body` is serializeWebhookBody(event), computed once by the caller.
   */
  async claimAndInsert(
    executor: Executor,
    consumer: string,
    events: StoredEventRow[],
  ): Promise<ClaimedChunk> {
    if (events.length === 0) return { claimed: new Set(), audiences: new Map() };
    const column = <T>(pick: (item: StoredEventRow) => T) => events.map(pick);
    // Two kinds of row: a claimed event (event_id), or an audience with its endpoints (account ids).
    const rows: {
      event_id: string | null;
      account_id: string | null;
      master_account_id: string | null;
      endpoints: SealedCandidateRow[] | null;
    }[] = await executor.query(
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
       audiences AS (SELECT DISTINCT account_id, master_account_id FROM stored)
       SELECT event_id, NULL AS account_id, NULL AS master_account_id, NULL::jsonb AS endpoints FROM stored
       UNION ALL
       SELECT NULL, a.account_id, a.master_account_id, ${fanOutCandidatesOf('a')} FROM audiences a`,
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
    const chunk: ClaimedChunk = { claimed: new Set(), audiences: new Map() };
    for (const row of rows) {
      if (row.event_id !== null) chunk.claimed.add(row.event_id);
      else
        chunk.audiences.set(
          audienceOf(row.account_id ?? '', row.master_account_id ?? ''),
          row.endpoints ?? [],
        );
    }
    return chunk;
  }
}
