import { Injectable } from '@nestjs/common';
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

export interface BucketMismatch {
  accountId: string;
  currency: string;
  bucket: string;
  ledgerMinor: bigint;
  payoutsMinor: bigint;
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
const PAYOUT_BUCKETS = `
WITH ledger AS (
  SELECT a.owner_id AS account_id, a.currency, a.bucket, coalesce(sum(p.amount), 0) AS total
    FROM ledger_accounts a LEFT JOIN ledger_postings p ON p.ledger_account_id = a.id
   WHERE a.bucket IN ('payout_reserved', 'payout_in_transit', 'payout_returned')
   GROUP BY a.owner_id, a.currency, a.bucket
), open_payouts AS (
  SELECT account_id, currency,
         CASE status WHEN 'INITIATED' THEN 'payout_reserved' WHEN 'PROCESSING' THEN 'payout_in_transit' ELSE 'payout_returned' END AS bucket,
         sum(amount_minor) AS total
    FROM payouts WHERE status IN ('INITIATED', 'PROCESSING', 'FAILED')
   GROUP BY 1, 2, 3
)
SELECT coalesce(l.account_id, o.account_id) AS account_id, coalesce(l.currency, o.currency) AS currency,
       coalesce(l.bucket, o.bucket) AS bucket, coalesce(l.total, 0)::text AS ledger, coalesce(o.total, 0)::text AS payouts
  FROM ledger l FULL JOIN open_payouts o ON o.account_id = l.account_id AND o.currency = l.currency AND o.bucket = l.bucket
 WHERE coalesce(l.total, 0) <> coalesce(o.total, 0)`;

/** Counterparts that must never turn positive: the network owes, the platform advances; never the reverse. */
const COUNTERPART_SIGNS = `
SELECT a.owner_id, a.currency, a.bucket, sum(p.amount)::text AS total
  FROM ledger_accounts a JOIN ledger_postings p ON p.ledger_account_id = a.id
 WHERE a.bucket IN ('card_network', 'refund_advance')
 GROUP BY a.owner_id, a.currency, a.bucket
HAVING sum(p.amount) > 0`;

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

  async payoutBucketMismatches(executor: Executor): Promise<BucketMismatch[]> {
    return rowsOf<Record<string, string>>(await executor.query(PAYOUT_BUCKETS)).map((row) => ({
      accountId: row.account_id,
      currency: row.currency,
      bucket: row.bucket,
      ledgerMinor: BigInt(row.ledger),
      payoutsMinor: BigInt(row.payouts),
    }));
  }

  async positiveCounterparts(executor: Executor): Promise<{ accountId: string; currency: string; bucket: string; totalMinor: bigint }[]> {
    return rowsOf<Record<string, string>>(await executor.query(COUNTERPART_SIGNS)).map((row) => ({
      accountId: row.owner_id,
      currency: row.currency,
      bucket: row.bucket,
      totalMinor: BigInt(row.total),
    }));
  }

  async payoutsWithoutReserve(executor: Executor): Promise<string[]> {
    return rowsOf<{ payout_id: string }>(await executor.query(PAYOUTS_WITHOUT_RESERVE)).map((row) => row.payout_id);
  }
}
