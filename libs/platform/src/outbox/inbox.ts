import { Executor } from '../database/data-source';

/**
 * Consumer-side dedupe (architecture rule 4): call inside the transaction that applies the event's
 * effect. Returns false when this consumer already processed the event, in which case the caller
 * skips the effect; the insert commits or rolls back together with the effect.
 */
export async function claimInboxEvent(executor: Executor, consumer: string, eventId: string): Promise<boolean> {
  const inserted = await executor.query(
    `INSERT INTO inbox (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id`,
    [consumer, eventId],
  );
  return inserted.length === 1;
}

/**
 * claimInboxEvent for a batch in one statement: the ids of `eventIds` this consumer had not processed yet
 * (each once, whatever the repeats in the batch), now claimed inside the caller's transaction.
 */
export async function claimInboxEvents(
  executor: Executor,
  consumer: string,
  eventIds: string[],
): Promise<Set<string>> {
  if (eventIds.length === 0) return new Set();
  const inserted: { event_id: string }[] = await executor.query(
    `INSERT INTO inbox (consumer, event_id) SELECT $1, id FROM unnest($2::text[]) AS batch(id)
     ON CONFLICT DO NOTHING RETURNING event_id`,
    [consumer, [...new Set(eventIds)]],
  );
  return new Set(inserted.map((row) => row.event_id));
}
