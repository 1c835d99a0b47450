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
