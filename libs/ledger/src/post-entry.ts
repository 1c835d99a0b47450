/**
 * Why: posting is the ledger's hot path (every capture, payout and card authorization), so a new entry costs ONE
 * round trip: a single statement whose data-modifying CTEs
 *   1. insert the entry, or nothing when its reference exists (ON CONFLICT DO NOTHING on the unique reference:
 *      a concurrent duplicate waits for the first and then posts nothing);
 *   2. upsert one row per touched account, in the plan's global order (owner, currency, bucket): a new account
 *      is created with the delta as its balance, an existing one gets `balance = balance + delta` only
 *      `WHERE allows_negative OR balance + delta >= 0`. ON CONFLICT DO UPDATE locks and reads the latest committed
 *      row, so concurrent debits serialise on it and none can take the balance below zero; rows are locked in the
 *      same order by every entry, so entries never deadlock on each other;
 *   3. insert the postings, each with its account's resulting balance, but only if every account in step 2 was
 *      applied.
 * Round trips per post: 1 for a new entry (also when refused for insufficient funds); 2 for a repeated
 * reference (the second reads the stored entry to return it and to check it is the same movement). The commit
 * is the caller's. Run it in READ COMMITTED (the default): under REPEATABLE READ a debit racing another on the same
 * account gets a serialization failure instead of waiting.
 *
 * A debit of a non-negative account that does not exist yet (its balance is 0) is left out of step 2 rather than
 * inserted as a negative balance the `ledger_accounts_non_negative` trigger would refuse, so the refusal is an
 * InsufficientFundsError naming the bucket, not a SQL error (an account created by a concurrent transaction after
 * this statement's snapshot counts as not existing yet: refused, never overdrawn).
 *
 * After InsufficientFundsError the statement has written the entry row and some balances but no postings; the
 * caller's transaction must roll back, and cannot do otherwise: the deferred `ledger_entries_posted` trigger
 * refuses to commit an entry without postings.
 */
import { rowsOf } from '@paygrid/state-machine';
import { bigintFromDb, dateFromDb, jsonFromDb } from './db-values';
import { EntryPlan, accountKeyOf } from './entry-plan';
import { InsufficientFundsError, LedgerReferenceConflictError } from './ledger-errors';
import { findEntry } from './ledger-reads';
import { movementOf } from './post-entries';
import { LedgerEntry, LedgerExecutor, LedgerPosting, PostResult } from './ledger-types';

const POST_ENTRY_SQL = `
WITH entry AS (
  INSERT INTO ledger_entries (reference, kind, occurred_at, metadata)
  VALUES ($1, $2, coalesce($3::timestamptz, now()), $4::jsonb)
  ON CONFLICT ON CONSTRAINT ledger_entries_reference DO NOTHING
  RETURNING id, occurred_at, recorded_at
),
delta AS (
  SELECT * FROM unnest($5::text[], $6::text[], $7::text[], $8::boolean[], $9::bigint[]) WITH ORDINALITY
    AS d (owner_id, currency, bucket, allows_negative, amount, position)
),
applied AS (
  INSERT INTO ledger_accounts AS a (owner_id, currency, bucket, allows_negative, balance)
  SELECT d.owner_id, d.currency, d.bucket, d.allows_negative, d.amount
    FROM delta d
   WHERE EXISTS (SELECT 1 FROM entry)
     AND (d.allows_negative OR d.amount >= 0 OR EXISTS (
           SELECT 1 FROM ledger_accounts x
            WHERE x.owner_id = d.owner_id AND x.currency = d.currency AND x.bucket = d.bucket))
   ORDER BY d.position
  ON CONFLICT ON CONSTRAINT ledger_accounts_key DO UPDATE
     SET balance = a.balance + EXCLUDED.balance, updated_at = now()
   WHERE a.allows_negative OR a.balance + EXCLUDED.balance >= 0
  RETURNING a.id, a.owner_id, a.currency, a.bucket, a.balance
),
line AS (
  SELECT * FROM unnest($10::text[], $11::text[], $12::text[], $13::bigint[]) WITH ORDINALITY
    AS l (owner_id, currency, bucket, amount, position)
),
posted AS (
  INSERT INTO ledger_postings (entry_id, line, ledger_account_id, currency, amount, balance_after)
  SELECT entry.id, l.position, applied.id, l.currency, l.amount, applied.balance
    FROM entry
   CROSS JOIN line l
    JOIN applied ON applied.owner_id = l.owner_id AND applied.currency = l.currency AND applied.bucket = l.bucket
   WHERE (SELECT count(*) FROM applied) = cardinality($5::text[])
   ORDER BY l.position
  RETURNING id, line
)
SELECT entry.id::text AS entry_id, entry.occurred_at, entry.recorded_at,
       (SELECT coalesce(json_agg(json_build_object(
                 'owner_id', owner_id, 'currency', currency, 'bucket', bucket, 'balance', balance::text)), '[]')
          FROM applied) AS applied,
       (SELECT coalesce(json_agg(json_build_object('id', id::text, 'line', line)), '[]') FROM posted) AS posted
  FROM (SELECT 1) AS one
  LEFT JOIN entry ON true`;

interface AppliedRow {
  owner_id: string;
  currency: string;
  bucket: string;
  balance: string;
}

interface PostRow {
  entry_id: string | null;
  occurred_at: unknown;
  recorded_at: unknown;
  applied: unknown;
  posted: unknown;
}

export async function postEntry(executor: LedgerExecutor, plan: EntryPlan): Promise<PostResult> {
  const [row] = rowsOf(await executor.query(POST_ENTRY_SQL, postParams(plan))) as unknown as PostRow[];
  if (row.entry_id === null) return { entry: await storedRepeat(executor, plan), created: false };

  const balances = new Map<string, bigint>();
  for (const applied of jsonFromDb<AppliedRow[]>(row.applied)) {
    balances.set(
      accountKeyOf({ ownerId: applied.owner_id, currency: applied.currency, bucket: applied.bucket }),
      bigintFromDb(applied.balance),
    );
  }
  const refused = plan.accounts.filter((account) => !balances.has(accountKeyOf(account)));
  if (refused.length > 0) {
    throw new InsufficientFundsError(
      plan.reference,
      refused.map(({ ownerId, currency, bucket, deltaMinor }) => ({
        account: { ownerId, currency, bucket },
        debitMinor: -deltaMinor,
      })),
    );
  }

  const postingIds = new Map<number, string>();
  for (const posted of jsonFromDb<{ id: string; line: number }[]>(row.posted)) {
    postingIds.set(posted.line, posted.id);
  }
  const postings: LedgerPosting[] = plan.lines.map((line, index) => {
    const postingId = postingIds.get(index + 1);
    const balanceAfterMinor = balances.get(accountKeyOf(line));
    if (postingId === undefined || balanceAfterMinor === undefined) {
      throw new Error(`ledger entry ${plan.reference}: line ${index + 1} was not posted`);
    }
    return { ...line, postingId, line: index + 1, balanceAfterMinor };
  });
  return {
    created: true,
    entry: {
      entryId: row.entry_id,
      reference: plan.reference,
      kind: plan.kind,
      occurredAt: dateFromDb(row.occurred_at),
      recordedAt: dateFromDb(row.recorded_at),
      metadata: JSON.parse(plan.metadataJson),
      postings,
    },
  };
}

function postParams(plan: EntryPlan): unknown[] {
  return [
    plan.reference,
    plan.kind,
    plan.occurredAt,
    plan.metadataJson,
    plan.accounts.map((account) => account.ownerId),
    plan.accounts.map((account) => account.currency),
    plan.accounts.map((account) => account.bucket),
    plan.accounts.map((account) => account.allowsNegative),
    plan.accounts.map((account) => account.deltaMinor.toString()),
    plan.lines.map((line) => line.ownerId),
    plan.lines.map((line) => line.currency),
    plan.lines.map((line) => line.bucket),
    plan.lines.map((line) => line.amountMinor.toString()),
  ];
}

/**
 * The entry stored under the plan's reference. The same movement posted again (a redelivered event, a retried
 * command) returns it; different postings or another kind under the same reference are a caller bug and throw.
 */
async function storedRepeat(executor: LedgerExecutor, plan: EntryPlan): Promise<LedgerEntry> {
  const stored = await findEntry(executor, plan.reference);
  if (stored === undefined) {
    throw new Error(`ledger reference ${JSON.stringify(plan.reference)} conflicted but no entry is visible`);
  }
  if (stored.kind !== plan.kind || movementOf(stored.postings) !== movementOf(plan.lines)) {
    throw new LedgerReferenceConflictError(plan.reference, stored.entryId);
  }
  return stored;
}
