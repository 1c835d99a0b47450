/**
 * Why: "invariants checked by code, not hope" (issue 9). The triggers and constraints of ledger-tables.ts stop
 * bad writes through SQL; this recomputes everything from the postings to catch what they cannot (a cache row
 * edited by hand, triggers disabled during a restore) and answers with every discrepancy found, or none.
 * `npm run paygrid -- ledger verify` runs it per service database.
 *
 * Checks, one statement each (so each is consistent within itself even while posts go on; run it inside one
 * REPEATABLE READ transaction for a single snapshot across all four):
 * - every entry has postings, and they sum to zero per currency;
 * - every cached balance equals the sum of its account's postings;
 * - no account that may not go negative is negative, in the cache or recomputed;
 * - every posting's recorded balance_after equals the running sum of its account's postings up to and including
 *   its entry (postings of one account are applied in id order: the balance row lock serialises them).
 */
import { rowsOf } from '@paygrid/state-machine';
import { bigintFromDb } from './db-values';
import { describeAccount } from './ledger-errors';
import { LedgerAccountKey, LedgerExecutor } from './ledger-types';

export type LedgerDiscrepancy =
  | { readonly kind: 'entry_without_postings'; readonly entryId: string; readonly reference: string }
  | {
      readonly kind: 'unbalanced_entry';
      readonly entryId: string;
      readonly reference: string;
      readonly currency: string;
      readonly sumMinor: bigint;
    }
  | {
      readonly kind: 'balance_mismatch';
      readonly account: LedgerAccountKey;
      readonly cachedMinor: bigint;
      readonly recomputedMinor: bigint;
    }
  | {
      readonly kind: 'negative_balance';
      readonly account: LedgerAccountKey;
      readonly cachedMinor: bigint;
      readonly recomputedMinor: bigint;
    }
  | {
      readonly kind: 'running_balance_mismatch';
      readonly account: LedgerAccountKey;
      readonly entryId: string;
      readonly recordedMinor: bigint;
      readonly expectedMinor: bigint;
    };

const ENTRIES_WITHOUT_POSTINGS = `
SELECT e.id::text AS entry_id, e.reference
  FROM ledger_entries e
 WHERE NOT EXISTS (SELECT 1 FROM ledger_postings p WHERE p.entry_id = e.id)
 ORDER BY e.id`;

const UNBALANCED_ENTRIES = `
SELECT e.id::text AS entry_id, e.reference, p.currency, sum(p.amount)::text AS total
  FROM ledger_postings p JOIN ledger_entries e ON e.id = p.entry_id
 GROUP BY e.id, e.reference, p.currency
HAVING sum(p.amount) <> 0
 ORDER BY e.id, p.currency`;

const BALANCES = `
SELECT a.owner_id, a.currency, a.bucket, a.allows_negative, a.balance::text AS cached,
       coalesce(s.total, 0)::text AS recomputed
  FROM ledger_accounts a
  LEFT JOIN (SELECT ledger_account_id, sum(amount) AS total FROM ledger_postings GROUP BY ledger_account_id) s
    ON s.ledger_account_id = a.id
 WHERE a.balance <> coalesce(s.total, 0)
    OR (NOT a.allows_negative AND (a.balance < 0 OR coalesce(s.total, 0) < 0))
 ORDER BY a.owner_id, a.currency, a.bucket`;

const RUNNING_BALANCES = `
WITH per_entry AS (
  SELECT ledger_account_id, entry_id, min(id) AS first_posting, sum(amount) AS amount,
         min(balance_after) AS lowest, max(balance_after) AS highest
    FROM ledger_postings
   GROUP BY ledger_account_id, entry_id
), running AS (
  SELECT *, sum(amount) OVER (PARTITION BY ledger_account_id ORDER BY first_posting) AS expected
    FROM per_entry
)
SELECT a.owner_id, a.currency, a.bucket, r.entry_id::text AS entry_id,
       CASE WHEN r.lowest <> r.expected THEN r.lowest ELSE r.highest END::text AS recorded,
       r.expected::text AS expected
  FROM running r JOIN ledger_accounts a ON a.id = r.ledger_account_id
 WHERE r.lowest <> r.expected OR r.highest <> r.expected
 ORDER BY a.owner_id, a.currency, a.bucket, r.first_posting`;

/** Every discrepancy in the ledger of this database; an empty list means it is clean. */
export async function verifyLedger(executor: LedgerExecutor): Promise<LedgerDiscrepancy[]> {
  const found: LedgerDiscrepancy[] = [];
  for (const row of rowsOf(await executor.query(ENTRIES_WITHOUT_POSTINGS, []))) {
    found.push({
      kind: 'entry_without_postings',
      entryId: String(row.entry_id),
      reference: String(row.reference),
    });
  }
  for (const row of rowsOf(await executor.query(UNBALANCED_ENTRIES, []))) {
    found.push({
      kind: 'unbalanced_entry',
      entryId: String(row.entry_id),
      reference: String(row.reference),
      currency: String(row.currency),
      sumMinor: bigintFromDb(row.total),
    });
  }
  for (const row of rowsOf(await executor.query(BALANCES, []))) {
    const account = accountOf(row);
    const cachedMinor = bigintFromDb(row.cached);
    const recomputedMinor = bigintFromDb(row.recomputed);
    if (cachedMinor !== recomputedMinor) {
      found.push({ kind: 'balance_mismatch', account, cachedMinor, recomputedMinor });
    }
    if (row.allows_negative !== true && (cachedMinor < 0n || recomputedMinor < 0n)) {
      found.push({ kind: 'negative_balance', account, cachedMinor, recomputedMinor });
    }
  }
  for (const row of rowsOf(await executor.query(RUNNING_BALANCES, []))) {
    found.push({
      kind: 'running_balance_mismatch',
      account: accountOf(row),
      entryId: String(row.entry_id),
      recordedMinor: bigintFromDb(row.recorded),
      expectedMinor: bigintFromDb(row.expected),
    });
  }
  return found;
}

/** One line per discrepancy, for the CLI and logs. */
export function describeDiscrepancy(discrepancy: LedgerDiscrepancy): string {
  switch (discrepancy.kind) {
    case 'entry_without_postings':
      return `entry ${discrepancy.entryId} (${discrepancy.reference}) has no postings`;
    case 'unbalanced_entry':
      return `entry ${discrepancy.entryId} (${discrepancy.reference}) does not balance: ${discrepancy.currency} postings sum to ${discrepancy.sumMinor}`;
    case 'balance_mismatch':
      return `${describeAccount(discrepancy.account)}: cached balance ${discrepancy.cachedMinor}, postings sum to ${discrepancy.recomputedMinor}`;
    case 'negative_balance':
      return `${describeAccount(discrepancy.account)} may not go negative: cached ${discrepancy.cachedMinor}, postings sum to ${discrepancy.recomputedMinor}`;
    case 'running_balance_mismatch':
      return `${describeAccount(discrepancy.account)}: entry ${discrepancy.entryId} recorded balance ${discrepancy.recordedMinor}, running sum is ${discrepancy.expectedMinor}`;
  }
}

function accountOf(row: Record<string, unknown>): LedgerAccountKey {
  return { ownerId: String(row.owner_id), currency: String(row.currency), bucket: String(row.bucket) };
}
