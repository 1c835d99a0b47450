import { rowsOf } from '@paygrid/state-machine';
import { bigintFromDb } from './db-values';
import { LedgerExecutor } from './ledger-types';

/**
 * The two audit questions every owning service asks of its ledger beside verifyLedger, with its own
 * records as the other side (payouts: the payouts table; issuing: the card orders). Recomputed from the
 * postings, never from the balance cache. Run them in the same REPEATABLE READ transaction as the rest of
 * the audit, so records and postings come from one snapshot.
 */
export interface BucketTotal {
  ownerId: string;
  currency: string;
  bucket: string;
  totalMinor: bigint;
}

export interface BucketTotalMismatch {
  ownerId: string;
  currency: string;
  bucket: string;
  ledgerMinor: bigint;
  expectedMinor: bigint;
}

/**
 * Where the buckets named hold another sum than the service's records say they must. `expected` is a
 * query answering `owner_id, currency, bucket, total` for those buckets (owners absent from it must hold
 * zero); its parameters are `$2` onwards (`$1` is the bucket list).
 */
export async function bucketTotalsAgainst(
  executor: LedgerExecutor,
  buckets: readonly string[],
  expected: { sql: string; params?: readonly unknown[] },
): Promise<BucketTotalMismatch[]> {
  const rows = rowsOf(
    await executor.query(
      `WITH ledger AS (
         SELECT a.owner_id, a.currency, a.bucket, coalesce(sum(p.amount), 0) AS total
           FROM ledger_accounts a LEFT JOIN ledger_postings p ON p.ledger_account_id = a.id
          WHERE a.bucket = ANY($1::text[])
          GROUP BY a.owner_id, a.currency, a.bucket
       ), expected AS (${expected.sql})
       SELECT coalesce(l.owner_id, x.owner_id::text) AS owner_id, coalesce(l.currency, x.currency) AS currency,
              coalesce(l.bucket, x.bucket) AS bucket, coalesce(l.total, 0)::text AS ledger, coalesce(x.total, 0)::text AS expected
         FROM ledger l FULL JOIN expected x ON x.owner_id::text = l.owner_id AND x.currency = l.currency AND x.bucket = l.bucket
        WHERE coalesce(l.total, 0) <> coalesce(x.total, 0)
        ORDER BY 1, 2, 3`,
      [buckets, ...(expected.params ?? [])],
    ),
  );
  return rows.map((row) => ({
    ownerId: String(row.owner_id),
    currency: String(row.currency),
    bucket: String(row.bucket),
    ledgerMinor: bigintFromDb(row.ledger),
    expectedMinor: bigintFromDb(row.expected),
  }));
}

/** Counterpart buckets that turned positive although they may only be zero or negative (money owed, advanced, from outside). */
export async function positiveTotals(executor: LedgerExecutor, buckets: readonly string[]): Promise<BucketTotal[]> {
  const rows = rowsOf(
    await executor.query(
      `SELECT a.owner_id, a.currency, a.bucket, sum(p.amount)::text AS total
         FROM ledger_accounts a JOIN ledger_postings p ON p.ledger_account_id = a.id
        WHERE a.bucket = ANY($1::text[])
        GROUP BY a.owner_id, a.currency, a.bucket
       HAVING sum(p.amount) > 0
        ORDER BY 1, 2, 3`,
      [buckets],
    ),
  );
  return rows.map((row) => ({
    ownerId: String(row.owner_id),
    currency: String(row.currency),
    bucket: String(row.bucket),
    totalMinor: bigintFromDb(row.total),
  }));
}
