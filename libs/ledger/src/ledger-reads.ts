/**
 * Why: services read balances and history straight from the ledger's tables instead of keeping copies. Balances
 * come from the cache on the account row (one index lookup); history is paginated newest first (occurred_at, then
 * entry id, both descending) with the total for `{total_pages, total_items}`, counted in the same query. Each read
 * is one statement; only a page past the end costs a second one (the count, since no row carries it).
 */
import { Row, rowsOf } from '@paygrid/state-machine';
import { bigintFromDb, dateFromDb, jsonFromDb } from './db-values';
import {
  LedgerAccountKey,
  LedgerBalance,
  LedgerEntry,
  LedgerEntryHeader,
  LedgerExecutor,
  LedgerHistoryQuery,
  LedgerJson,
  LedgerPage,
  LedgerPosting,
  OwnerPosting,
} from './ledger-types';

/** The bucket's balance; 0 for an account that has never been posted to. */
export async function balanceOf(executor: LedgerExecutor, account: LedgerAccountKey): Promise<bigint> {
  const [row] = rowsOf(
    await executor.query(
      'SELECT balance::text AS balance FROM ledger_accounts WHERE owner_id = $1 AND currency = $2 AND bucket = $3',
      [account.ownerId, account.currency, account.bucket],
    ),
  );
  return row === undefined ? 0n : bigintFromDb(row.balance);
}

/** Every bucket the owner holds (in one currency if given), ordered by currency then bucket. */
export async function balancesOf(
  executor: LedgerExecutor,
  ownerId: string,
  currency?: string,
): Promise<LedgerBalance[]> {
  const rows = rowsOf(
    await executor.query(
      `SELECT owner_id, currency, bucket, balance::text AS balance, allows_negative, created_at, updated_at
         FROM ledger_accounts
        WHERE owner_id = $1 AND ($2::text IS NULL OR currency = $2)
        ORDER BY currency, bucket`,
      [ownerId, currency ?? null],
    ),
  );
  return rows.map((row) => ({
    ownerId: String(row.owner_id),
    currency: String(row.currency),
    bucket: String(row.bucket),
    balanceMinor: bigintFromDb(row.balance),
    allowsNegative: row.allows_negative === true,
    createdAt: dateFromDb(row.created_at),
    updatedAt: dateFromDb(row.updated_at),
  }));
}

/** The currencies the owner has ever held, in code order. */
export async function currenciesOf(executor: LedgerExecutor, ownerId: string): Promise<string[]> {
  const rows = rowsOf(
    await executor.query(
      'SELECT DISTINCT currency FROM ledger_accounts WHERE owner_id = $1 ORDER BY currency',
      [ownerId],
    ),
  );
  return rows.map((row) => String(row.currency));
}

const POSTINGS_JSON = `(
  SELECT json_agg(json_build_object(
           'posting_id', p.id::text, 'line', p.line, 'owner_id', a.owner_id, 'currency', a.currency,
           'bucket', a.bucket, 'amount', p.amount::text, 'balance_after', p.balance_after::text) ORDER BY p.line)
    FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.ledger_account_id
   WHERE p.entry_id = e.id)`;

const ENTRY_COLUMNS = `e.id::text AS entry_id, e.reference, e.kind, e.occurred_at, e.recorded_at, e.metadata,
  ${POSTINGS_JSON} AS postings`;

/** The entry posted under `reference`, with all its postings in line order. */
export async function findEntry(
  executor: LedgerExecutor,
  reference: string,
): Promise<LedgerEntry | undefined> {
  const [row] = rowsOf(
    await executor.query(`SELECT ${ENTRY_COLUMNS} FROM ledger_entries e WHERE e.reference = $1`, [reference]),
  );
  return row === undefined ? undefined : entryFromRow(row);
}

// $1 owner, $2 currency, $3 buckets; $4 kinds, $5 reference, $6 from (inclusive), $7 before (exclusive).
const ACCOUNT_FILTER = `a.owner_id = $1 AND ($2::text IS NULL OR a.currency = $2)
  AND ($3::text[] IS NULL OR a.bucket = ANY($3::text[]))`;
const ENTRY_FILTER = `($4::text[] IS NULL OR e.kind = ANY($4::text[])) AND ($5::text IS NULL OR e.reference = $5)
  AND ($6::timestamptz IS NULL OR e.occurred_at >= $6) AND ($7::timestamptz IS NULL OR e.occurred_at < $7)`;

const MATCHING_ENTRIES = `FROM ledger_entries e
 WHERE e.id IN (SELECT p.entry_id FROM ledger_accounts a JOIN ledger_postings p ON p.ledger_account_id = a.id
                 WHERE ${ACCOUNT_FILTER})
   AND ${ENTRY_FILTER}`;

const MATCHING_POSTINGS = `FROM ledger_accounts a
  JOIN ledger_postings p ON p.ledger_account_id = a.id
  JOIN ledger_entries e ON e.id = p.entry_id
 WHERE ${ACCOUNT_FILTER} AND ${ENTRY_FILTER}`;

/** Entries with at least one matching posting of the owner, each with ALL its postings (both sides). */
export async function listEntries(
  executor: LedgerExecutor,
  query: LedgerHistoryQuery,
): Promise<LedgerPage<LedgerEntry>> {
  const params = historyParams(query);
  const rows = rowsOf(
    await executor.query(
      `SELECT page.total, ${ENTRY_COLUMNS}
         FROM (SELECT e.id, count(*) OVER () AS total ${MATCHING_ENTRIES}
                ORDER BY e.occurred_at DESC, e.id DESC LIMIT $8 OFFSET $9) AS page
         JOIN ledger_entries e ON e.id = page.id
        ORDER BY e.occurred_at DESC, e.id DESC`,
      params,
    ),
  );
  return pageOf(executor, rows, entryFromRow, MATCHING_ENTRIES, params);
}

/** The owner's matching postings, one per line, each with its entry: a transaction listing. */
export async function listPostings(
  executor: LedgerExecutor,
  query: LedgerHistoryQuery,
): Promise<LedgerPage<OwnerPosting>> {
  const params = historyParams(query);
  const rows = rowsOf(
    await executor.query(
      `SELECT count(*) OVER () AS total, p.id::text AS posting_id, p.line, p.amount::text AS amount,
              p.balance_after::text AS balance_after, a.owner_id, a.currency, a.bucket,
              e.id::text AS entry_id, e.reference, e.kind, e.occurred_at, e.recorded_at, e.metadata
         ${MATCHING_POSTINGS}
        ORDER BY e.occurred_at DESC, e.id DESC, p.line DESC LIMIT $8 OFFSET $9`,
      params,
    ),
  );
  return pageOf(executor, rows, ownerPostingFromRow, MATCHING_POSTINGS, params);
}

function historyParams(query: LedgerHistoryQuery): unknown[] {
  for (const field of ['pageNumber', 'pageSize'] as const) {
    if (!Number.isSafeInteger(query[field]) || query[field] < 1) {
      throw new RangeError(`${field} must be a positive integer, got ${query[field]}`);
    }
  }
  return [
    query.ownerId,
    query.currency ?? null,
    query.buckets === undefined ? null : [...query.buckets],
    query.kinds === undefined ? null : [...query.kinds],
    query.reference ?? null,
    query.occurredFrom ?? null,
    query.occurredBefore ?? null,
    query.pageSize,
    (query.pageNumber - 1) * query.pageSize,
  ];
}

async function pageOf<T>(
  executor: LedgerExecutor,
  rows: Row[],
  toItem: (row: Row) => T,
  matching: string,
  params: unknown[],
): Promise<LedgerPage<T>> {
  if (rows.length > 0) return { items: rows.map(toItem), totalItems: Number(rows[0].total) };
  if (params[8] === 0) return { items: [], totalItems: 0 };
  const [count] = rowsOf(await executor.query(`SELECT count(*) AS total ${matching}`, params.slice(0, 7)));
  return { items: [], totalItems: Number(count.total) };
}

interface PostingJson {
  posting_id: string;
  line: number;
  owner_id: string;
  currency: string;
  bucket: string;
  amount: string;
  balance_after: string;
}

function entryFromRow(row: Row): LedgerEntry {
  return {
    ...entryHeaderFromRow(row),
    postings: (jsonFromDb<PostingJson[] | null>(row.postings) ?? []).map(postingFromJson),
  };
}

function entryHeaderFromRow(row: Row): LedgerEntryHeader {
  return {
    entryId: String(row.entry_id),
    reference: String(row.reference),
    kind: String(row.kind),
    occurredAt: dateFromDb(row.occurred_at),
    recordedAt: dateFromDb(row.recorded_at),
    metadata: jsonFromDb<{ [key: string]: LedgerJson }>(row.metadata),
  };
}

function postingFromJson(posting: PostingJson): LedgerPosting {
  return {
    postingId: posting.posting_id,
    line: posting.line,
    ownerId: posting.owner_id,
    currency: posting.currency,
    bucket: posting.bucket,
    amountMinor: bigintFromDb(posting.amount),
    balanceAfterMinor: bigintFromDb(posting.balance_after),
  };
}

/** A listing row carries the posting's columns under the names the postings JSON uses. */
function ownerPostingFromRow(row: Row): OwnerPosting {
  return { ...entryHeaderFromRow(row), ...postingFromJson(row as unknown as PostingJson) };
}
