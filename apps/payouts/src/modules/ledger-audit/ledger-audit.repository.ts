import { Injectable } from '@nestjs/common';
import { BucketTotal, BucketTotalMismatch, bucketTotalsAgainst, positiveTotals } from '@paygrid/ledger';
import { Executor, rowsOf } from '@paygrid/platform';

/**
 * The audit's SQL: everything recomputed from the postings (never the balance cache), and the payouts
 * table read beside the ledger. Each statement reads the same snapshot when run in one REPEATABLE READ
 * transaction (LedgerAuditService).
 */
export interface RecomputedAccount {
  accountId: string;
  masterAccountId: string;
  currency: string;
  availableMinor: bigint;
  pendingMinor: bigint;
  settledMinor: bigint;
  settlementCount: number;
}

const RECOMPUTED = `
WITH sums AS (
  SELECT a.owner_id, a.currency, a.bucket, coalesce(sum(p.amount), 0) AS total
    FROM ledger_accounts a LEFT JOIN ledger_postings p ON p.ledger_account_id = a.id
   GROUP BY a.owner_id, a.currency, a.bucket
), settled AS (
  SELECT a.owner_id, a.currency, sum(p.amount) AS total, count(*) AS settlements
    FROM ledger_postings p
    JOIN ledger_accounts a ON a.id = p.ledger_account_id
    JOIN ledger_entries e ON e.id = p.entry_id
   WHERE a.bucket = 'card_network' AND e.kind = 'payment.settled'
   GROUP BY a.owner_id, a.currency
)
SELECT s.owner_id, s.currency, coalesce(d.master_account_id, s.owner_id) AS master_account_id,
       coalesce(sum(s.total) FILTER (WHERE s.bucket = 'available'), 0)::text AS available,
       coalesce(sum(s.total) FILTER (WHERE s.bucket = 'pending'), 0)::text AS pending,
       coalesce(max(st.total), 0)::text AS settled,
       coalesce(max(st.settlements), 0)::int AS settlements
  FROM sums s
  LEFT JOIN settled st ON st.owner_id = s.owner_id AND st.currency = s.currency
  LEFT JOIN account_directory d ON d.account_id = s.owner_id
 GROUP BY s.owner_id, s.currency, d.master_account_id
 ORDER BY s.owner_id, s.currency`;

/** The money a payout status holds sits in exactly one bucket: the table and the ledger must agree. */
const PAYOUT_BUCKETS = ['payout_reserved', 'payout_in_transit', 'payout_returned'];
const OPEN_PAYOUTS = `
SELECT account_id AS owner_id, currency,
       CASE status WHEN 'INITIATED' THEN 'payout_reserved' WHEN 'PROCESSING' THEN 'payout_in_transit' ELSE 'payout_returned' END AS bucket,
       sum(amount_minor) AS total
  FROM payouts WHERE status IN ('INITIATED', 'PROCESSING', 'FAILED')
 GROUP BY 1, 2, 3`;

/** Counterparts that must never turn positive: the network owes, the platform advances; never the reverse. */
const SIGNED_COUNTERPARTS = ['card_network', 'refund_advance'];

const PAYOUTS_WITHOUT_RESERVE = `
SELECT p.payout_id FROM payouts p
 WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.reference = 'payout:' || p.payout_id || ':reserve')`;

@Injectable()
export class LedgerAuditRepository {
  async recomputedAccounts(executor: Executor): Promise<RecomputedAccount[]> {
    return rowsOf<Record<string, string | number>>(await executor.query(RECOMPUTED)).map((row) => ({
      accountId: String(row.owner_id),
      masterAccountId: String(row.master_account_id),
      currency: String(row.currency),
      availableMinor: BigInt(row.available),
      pendingMinor: BigInt(row.pending),
      settledMinor: BigInt(row.settled),
      settlementCount: Number(row.settlements),
    }));
  }

  payoutBucketMismatches(executor: Executor): Promise<BucketTotalMismatch[]> {
    return bucketTotalsAgainst(executor, PAYOUT_BUCKETS, { sql: OPEN_PAYOUTS });
  }

  positiveCounterparts(executor: Executor): Promise<BucketTotal[]> {
    return positiveTotals(executor, SIGNED_COUNTERPARTS);
  }

  async payoutsWithoutReserve(executor: Executor): Promise<string[]> {
    return rowsOf<{ payout_id: string }>(await executor.query(PAYOUTS_WITHOUT_RESERVE)).map((row) => row.payout_id);
  }
}
