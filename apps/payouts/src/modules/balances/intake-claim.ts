import { Executor } from '@paygrid/platform';
import { fundsKey } from './batch-plan';

/**
 * Why: a batch of acquiring events is applied in one transaction that touches several merchants, and two
 * batches read on different partitions (captures, settlements and refunds are keyed differently) may touch
 * the same ones. Each batch therefore first takes a transaction-scoped advisory lock per merchant and currency,
 * all of them in one sorted order, so two batches of the same merchant run one after the other and never
 * deadlock on each other's new accounts or entry references; the next statement's snapshot then sees all the
 * earlier batch committed (MerchantLedger.lockIntake relies on it).
 *
 * The locks are taken by the same statement that claims the batch's event ids in the inbox, and before it
 * (an InitPlan gating the insert), so they cost no round trip of their own. Payout commands need no such
 * lock: each touches one merchant and locks its rows in the ledger's order.
 */
const INTAKE_LOCK_CLASS = 748_213_107;

export async function claimIntake(
  executor: Executor,
  consumer: string,
  eventIds: readonly string[],
  sets: readonly { merchantId: string; currency: string }[],
): Promise<Set<string>> {
  const claimed: { event_id: string }[] = await executor.query(
    `WITH locked AS MATERIALIZED (
       SELECT count(pg_advisory_xact_lock($1, k)) AS n
         FROM (SELECT DISTINCT hashtext(s) AS k FROM unnest($2::text[]) AS s ORDER BY 1) AS keys
     )
     INSERT INTO inbox (consumer, event_id)
     SELECT $3, id FROM unnest($4::text[]) AS batch(id) WHERE (SELECT n FROM locked) >= 0
     ON CONFLICT DO NOTHING RETURNING event_id`,
    [INTAKE_LOCK_CLASS, sets.map((set) => fundsKey(set.merchantId, set.currency)), consumer, [...new Set(eventIds)]],
  );
  return new Set(claimed.map((row) => row.event_id));
}
