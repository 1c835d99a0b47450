/**
 * Why: every rule an entry must meet that needs no database is checked here, before a round trip is spent:
 * names are well formed, amounts are non-zero bigint minor units within @paygrid/money's range, and the postings
 * of each currency sum to zero (else UnbalancedEntryError). The result is the plan post-entry.ts executes: the
 * lines as given, and one net delta per distinct account in a single global order (owner, currency, bucket by
 * UTF-16 code units), which is the order balance rows get locked in, so two entries can never deadlock on them.
 */
import { isSafeMinorUnits, isSupportedCurrency } from '@paygrid/money';
import { InvalidLedgerEntryError, UnbalancedEntryError } from './ledger-errors';
import { LedgerAccountKey, NewLedgerEntry, NewPosting } from './ledger-types';

export const MAX_POSTINGS_PER_ENTRY = 100;
export const MAX_REFERENCE_LENGTH = 255;
export const MAX_OWNER_ID_LENGTH = 128;
/** Bucket names are snake_case identifiers: `available`, `pending`, `network_clearing`. */
export const BUCKET_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;
/** Entry kinds are dotted snake_case: `payment.captured`, `payout.reserved`. */
export const KIND_PATTERN = /^[a-z][a-z0-9_.]{0,63}$/;

export interface PlannedAccount extends LedgerAccountKey {
  readonly allowsNegative: boolean;
  /** Net change of this account's balance by the whole entry. */
  readonly deltaMinor: bigint;
}

export interface EntryPlan {
  readonly reference: string;
  readonly kind: string;
  readonly occurredAt: Date | null;
  readonly metadataJson: string;
  readonly lines: readonly NewPosting[];
  /** One per distinct account, in lock order. */
  readonly accounts: readonly PlannedAccount[];
}

/** Validates `entry` and plans it; throws InvalidLedgerEntryError or UnbalancedEntryError. */
export function planEntry(entry: NewLedgerEntry, negativeBuckets: ReadonlySet<string>): EntryPlan {
  if (typeof entry !== 'object' || entry === null) throw invalid('the entry must be an object');
  const reference = checkReference(entry.reference);
  const kind = checkPattern('kind', entry.kind, KIND_PATTERN);
  const occurredAt = checkOccurredAt(entry.occurredAt);
  const metadataJson = checkMetadata(entry.metadata);
  const lines = checkPostings(entry.postings);
  assertBalanced(reference, lines);
  return {
    reference,
    kind,
    occurredAt,
    metadataJson,
    lines,
    accounts: netPerAccount(lines, negativeBuckets),
  };
}

export function accountKeyOf(account: LedgerAccountKey): string {
  return JSON.stringify([account.ownerId, account.currency, account.bucket]);
}

export function compareAccounts(a: LedgerAccountKey, b: LedgerAccountKey): number {
  return (
    compareText(a.ownerId, b.ownerId) ||
    compareText(a.currency, b.currency) ||
    compareText(a.bucket, b.bucket)
  );
}

function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

function checkReference(reference: unknown): string {
  if (typeof reference !== 'string' || reference.length === 0 || reference.length > MAX_REFERENCE_LENGTH) {
    throw invalid(`reference must be a string of 1 to ${MAX_REFERENCE_LENGTH} characters`);
  }
  return reference;
}

export function checkPattern(field: string, value: unknown, pattern: RegExp): string {
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw invalid(`${field} must match ${pattern}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function checkOccurredAt(occurredAt: unknown): Date | null {
  if (occurredAt === undefined) return null;
  if (!(occurredAt instanceof Date) || Number.isNaN(occurredAt.getTime())) {
    throw invalid('occurredAt must be a valid Date');
  }
  return occurredAt;
}

function checkMetadata(metadata: unknown): string {
  if (metadata === undefined) return '{}';
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw invalid('metadata must be a JSON object');
  }
  try {
    return JSON.stringify(metadata);
  } catch {
    throw invalid('metadata must be JSON-serialisable (no bigint, no cycles)');
  }
}

function checkPostings(postings: unknown): NewPosting[] {
  if (!Array.isArray(postings) || postings.length < 2 || postings.length > MAX_POSTINGS_PER_ENTRY) {
    throw invalid(`postings must be an array of 2 to ${MAX_POSTINGS_PER_ENTRY} lines`);
  }
  return postings.map((posting: unknown, index) => checkPosting(posting, index + 1));
}

function checkPosting(posting: unknown, line: number): NewPosting {
  if (typeof posting !== 'object' || posting === null) throw invalid(`posting ${line} must be an object`);
  const { ownerId, currency, bucket, amountMinor } = posting as Record<string, unknown>;
  if (typeof ownerId !== 'string' || ownerId.length === 0 || ownerId.length > MAX_OWNER_ID_LENGTH) {
    throw invalid(`posting ${line}: ownerId must be a string of 1 to ${MAX_OWNER_ID_LENGTH} characters`);
  }
  if (!isSupportedCurrency(currency)) {
    throw invalid(`posting ${line}: unsupported currency ${JSON.stringify(currency)}`);
  }
  checkPattern(`posting ${line}: bucket`, bucket, BUCKET_PATTERN);
  if (typeof amountMinor !== 'bigint') throw invalid(`posting ${line}: amountMinor must be a bigint`);
  if (amountMinor === 0n) throw invalid(`posting ${line}: amountMinor must not be zero`);
  if (!isSafeMinorUnits(amountMinor))
    throw invalid(`posting ${line}: amountMinor ${amountMinor} is out of range`);
  return { ownerId, currency, bucket: bucket as string, amountMinor };
}

function assertBalanced(reference: string, lines: readonly NewPosting[]): void {
  const sums = new Map<string, bigint>();
  for (const line of lines) sums.set(line.currency, (sums.get(line.currency) ?? 0n) + line.amountMinor);
  const [currency, sum] =
    [...sums].sort(([a], [b]) => compareText(a, b)).find(([, total]) => total !== 0n) ?? [];
  if (currency !== undefined && sum !== undefined) throw new UnbalancedEntryError(reference, currency, sum);
}

function netPerAccount(lines: readonly NewPosting[], negativeBuckets: ReadonlySet<string>): PlannedAccount[] {
  const accounts = new Map<string, PlannedAccount>();
  for (const line of lines) {
    const key = accountKeyOf(line);
    const known = accounts.get(key);
    accounts.set(key, {
      ownerId: line.ownerId,
      currency: line.currency,
      bucket: line.bucket,
      allowsNegative: negativeBuckets.has(line.bucket),
      deltaMinor: (known?.deltaMinor ?? 0n) + line.amountMinor,
    });
  }
  return [...accounts.values()].sort(compareAccounts);
}

function invalid(reason: string): InvalidLedgerEntryError {
  return new InvalidLedgerEntryError(reason);
}
