/**
 * Why: a consumer applying a batch of events (payouts' intake of acquiring's events) would otherwise pay one
 * round trip per entry, plus one more to read a repeated entry back, for results it never looks at. This posts
 * any number of entries with ONE statement and returns only which of them it created:
 *   1. the entries are inserted in the given order, a stored reference skipped (ON CONFLICT DO NOTHING);
 *   2. the lines of the entries just created are netted per account, with each account's running sum after
 *      each entry; every account is upserted once, in the global lock order (owner, currency, bucket), and a
 *      guarded one only if its balance plus its LOWEST running sum stays >= 0, so no entry of the batch, at its
 *      place in the sequence, takes a guarded bucket below zero (the same rule as post-entry.ts, entry by entry);
 *   3. all postings are inserted in one multi-row insert, in entry then line order (so posting ids follow the
 *      sequence verifyLedger replays), each with its account's balance once its entry was applied, and only if
 *      every account of step 2 was applied.
 * A repeated reference moves nothing; the same statement reads the stored entries so a repeat is still checked
 * to be the same movement (LedgerReferenceConflictError otherwise). Only when a concurrent transaction stored a
 * reference after this statement's snapshot does a second statement read it.
 *
 * After InsufficientFundsError the transaction holds entries without postings and must roll back (the deferred
 * `ledger_entries_posted` trigger refuses to commit them), as after post-entry.ts's.
 */
import { rowsOf } from '@paygrid/state-machine';
import { jsonFromDb } from './db-values';
import { EntryPlan, accountKeyOf } from './entry-plan';
import { InsufficientFundsError, LedgerReferenceConflictError } from './ledger-errors';
import { findEntry } from './ledger-reads';
import { LedgerExecutor, NewPosting } from './ledger-types';

const POST_ENTRIES_SQL = `
WITH input AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[]) WITH ORDINALITY
    AS i (reference, kind, occurred_at, metadata, position)
),
entry AS (
  INSERT INTO ledger_entries (reference, kind, occurred_at, metadata)
  SELECT reference, kind, coalesce(occurred_at, now()), metadata::jsonb FROM input ORDER BY position
  ON CONFLICT ON CONSTRAINT ledger_entries_reference DO NOTHING
  RETURNING id, reference
),
line AS (
  SELECT entry.id AS entry_id, i.position AS entry_position, l.*
    FROM unnest($5::int[], $6::int[], $7::text[], $8::text[], $9::text[], $10::boolean[], $11::bigint[])
      AS l (entry_index, line_no, owner_id, currency, bucket, allows_negative, amount)
    JOIN input i ON i.position = l.entry_index
    JOIN entry ON entry.reference = i.reference
),
per_entry AS (
  SELECT owner_id, currency, bucket, allows_negative, entry_position, sum(amount) AS delta
    FROM line GROUP BY owner_id, currency, bucket, allows_negative, entry_position
),
running AS (
  SELECT *, sum(delta) OVER (PARTITION BY owner_id, currency, bucket ORDER BY entry_position) AS through
    FROM per_entry
),
net AS (
  SELECT owner_id, currency, bucket, bool_or(allows_negative) AS allows_negative, sum(delta) AS delta,
         min(through) AS lowest
    FROM running GROUP BY owner_id, currency, bucket
),
applied AS (
  INSERT INTO ledger_accounts AS a (owner_id, currency, bucket, allows_negative, balance)
  SELECT n.owner_id, n.currency, n.bucket, n.allows_negative, n.delta
    FROM net n
   WHERE n.allows_negative OR n.lowest >= 0 OR EXISTS (
           SELECT 1 FROM ledger_accounts x
            WHERE x.owner_id = n.owner_id AND x.currency = n.currency AND x.bucket = n.bucket)
   ORDER BY n.owner_id COLLATE "C", n.currency COLLATE "C", n.bucket COLLATE "C"
  ON CONFLICT ON CONSTRAINT ledger_accounts_key DO UPDATE
     SET balance = a.balance + EXCLUDED.balance, updated_at = now()
   WHERE a.allows_negative OR a.balance + (
           SELECT n.lowest FROM net n
            WHERE n.owner_id = a.owner_id AND n.currency = a.currency AND n.bucket = a.bucket) >= 0
  RETURNING a.id, a.owner_id, a.currency, a.bucket, a.balance
),
posted AS (
  INSERT INTO ledger_postings (entry_id, line, ledger_account_id, currency, amount, balance_after)
  SELECT l.entry_id, l.line_no, ap.id, l.currency, l.amount, ap.balance - n.delta + r.through
    FROM line l
    JOIN applied ap ON ap.owner_id = l.owner_id AND ap.currency = l.currency AND ap.bucket = l.bucket
    JOIN net n ON n.owner_id = l.owner_id AND n.currency = l.currency AND n.bucket = l.bucket
    JOIN running r ON r.owner_id = l.owner_id AND r.currency = l.currency AND r.bucket = l.bucket
                  AND r.entry_position = l.entry_position
   WHERE (SELECT count(*) FROM applied) = (SELECT count(*) FROM net)
   ORDER BY l.entry_position, l.line_no
  RETURNING 1
),
stored AS (
  SELECT e.id, e.reference, e.kind,
         json_agg(json_build_array(a.owner_id, a.currency, a.bucket, p.amount::text)) AS lines
    FROM ledger_entries e
    JOIN ledger_postings p ON p.entry_id = e.id
    JOIN ledger_accounts a ON a.id = p.ledger_account_id
   WHERE e.reference = ANY($1::text[])
   GROUP BY e.id, e.reference, e.kind
)
SELECT (SELECT coalesce(json_agg(reference), '[]') FROM entry) AS created,
       (SELECT count(*) FROM posted)::int AS posted,
       (SELECT coalesce(json_agg(json_build_object('owner_id', n.owner_id, 'currency', n.currency,
                 'bucket', n.bucket, 'lowest', n.lowest::text)), '[]')
          FROM net n
         WHERE NOT EXISTS (SELECT 1 FROM applied ap
                            WHERE ap.owner_id = n.owner_id AND ap.currency = n.currency AND ap.bucket = n.bucket)
       ) AS refused,
       (SELECT coalesce(json_agg(json_build_object('entry_id', id::text, 'reference', reference, 'kind', kind,
                 'lines', lines)), '[]') FROM stored) AS stored`;

interface RefusedRow {
  owner_id: string;
  currency: string;
  bucket: string;
  lowest: string;
}

interface StoredRow {
  entry_id: string;
  reference: string;
  kind: string;
  lines: [string, string, string, string][];
}

/**
 * Posts `plans` in order with one statement; answers, per plan, whether this call created its entry (false: the
 * reference was stored already, or appeared earlier in `plans`). Throws InsufficientFundsError (roll back) or
 * LedgerReferenceConflictError, also when one reference is given twice for different movements.
 */
export async function postEntries(executor: LedgerExecutor, plans: readonly EntryPlan[]): Promise<boolean[]> {
  const unique = distinctByReference(plans);
  if (unique.length === 0) return plans.map(() => false);
  const [row] = rowsOf(await executor.query(POST_ENTRIES_SQL, postParams(unique)));
  const created = new Set(jsonFromDb<string[]>(row.created));

  const refused = jsonFromDb<RefusedRow[]>(row.refused);
  if (refused.length > 0) throw insufficientFunds(unique, created, refused);
  const expectedLines = unique.filter((plan) => created.has(plan.reference)).reduce((n, plan) => n + plan.lines.length, 0);
  if (Number(row.posted) !== expectedLines) {
    throw new Error(`ledger entries: ${row.posted} of ${expectedLines} postings were written`);
  }

  await checkRepeats(executor, unique, created, jsonFromDb<StoredRow[]>(row.stored));
  const answered = new Set<string>();
  return plans.map((plan) => {
    const first = created.has(plan.reference) && !answered.has(plan.reference);
    answered.add(plan.reference);
    return first;
  });
}

/** One plan per reference; a reference given twice must be the same movement both times. */
function distinctByReference(plans: readonly EntryPlan[]): EntryPlan[] {
  const seen = new Map<string, EntryPlan>();
  for (const plan of plans) {
    const first = seen.get(plan.reference);
    if (first === undefined) seen.set(plan.reference, plan);
    else if (!sameMovement(first.kind, first.lines, plan)) throw new LedgerReferenceConflictError(plan.reference, 'in the same batch');
  }
  return [...seen.values()];
}

function postParams(plans: readonly EntryPlan[]): unknown[] {
  const lines = plans.flatMap((plan, index) =>
    plan.lines.map((line, lineIndex) => ({ ...line, entry: index + 1, lineNo: lineIndex + 1, plan })),
  );
  const allowsNegative = (line: (typeof lines)[number]) =>
    line.plan.accounts.find((account) => accountKeyOf(account) === accountKeyOf(line))?.allowsNegative ?? false;
  return [
    plans.map((plan) => plan.reference),
    plans.map((plan) => plan.kind),
    plans.map((plan) => plan.occurredAt),
    plans.map((plan) => plan.metadataJson),
    lines.map((line) => line.entry),
    lines.map((line) => line.lineNo),
    lines.map((line) => line.ownerId),
    lines.map((line) => line.currency),
    lines.map((line) => line.bucket),
    lines.map(allowsNegative),
    lines.map((line) => line.amountMinor.toString()),
  ];
}

function insufficientFunds(
  plans: readonly EntryPlan[],
  created: ReadonlySet<string>,
  refused: readonly RefusedRow[],
): InsufficientFundsError {
  const keys = new Set(refused.map((row) => accountKeyOf({ ownerId: row.owner_id, currency: row.currency, bucket: row.bucket })));
  const first = plans.find((plan) => created.has(plan.reference) && plan.lines.some((line) => keys.has(accountKeyOf(line))));
  return new InsufficientFundsError(
    first?.reference ?? plans[0].reference,
    refused
      .map((row) => ({
        account: { ownerId: row.owner_id, currency: row.currency, bucket: row.bucket },
        debitMinor: -BigInt(row.lowest),
      }))
      .sort((a, b) => (accountKeyOf(a.account) < accountKeyOf(b.account) ? -1 : 1)),
  );
}

/**
 * Every plan this call did not create was stored before: it must be the same movement. The statement's snapshot
 * may predate a concurrent transaction that stored it (ON CONFLICT saw its row, the read did not): those few
 * are read again.
 */
async function checkRepeats(
  executor: LedgerExecutor,
  plans: readonly EntryPlan[],
  created: ReadonlySet<string>,
  storedRows: readonly StoredRow[],
): Promise<void> {
  const stored = new Map(storedRows.map((row) => [row.reference, row]));
  for (const plan of plans) {
    if (created.has(plan.reference)) continue;
    const row = stored.get(plan.reference);
    if (row !== undefined) {
      const lines = row.lines.map(([ownerId, currency, bucket, amount]) => ({ ownerId, currency, bucket, amountMinor: BigInt(amount) }));
      if (!sameMovement(row.kind, lines, plan)) throw new LedgerReferenceConflictError(plan.reference, row.entry_id);
      continue;
    }
    const entry = await findEntry(executor, plan.reference);
    if (entry === undefined) {
      throw new Error(`ledger reference ${JSON.stringify(plan.reference)} conflicted but no entry is visible`);
    }
    if (!sameMovement(entry.kind, entry.postings, plan)) throw new LedgerReferenceConflictError(plan.reference, entry.entryId);
  }
}

function sameMovement(kind: string, lines: readonly NewPosting[], plan: EntryPlan): boolean {
  return kind === plan.kind && movementOf(lines) === movementOf(plan.lines);
}

/** The lines as a comparable string, independent of their order. */
export function movementOf(lines: readonly NewPosting[]): string {
  const described = lines.map((line) =>
    JSON.stringify([line.ownerId, line.currency, line.bucket, line.amountMinor.toString()]),
  );
  return JSON.stringify(described.sort());
}
