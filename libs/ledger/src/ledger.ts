/**
 * Why: one object per service holding its chart of buckets, through which it posts and reads inside its own
 * transactions. The ledger owns no connection and starts no transaction: pass the transaction's executor, so a
 * posting commits or rolls back with the state change, inbox claim and outbox row around it.
 *
 * Which buckets may go negative is the service's declaration (`negativeBuckets`): the counterparts standing for the
 * world outside the ledger (network clearing, bank, external deposits). Every other bucket is guarded: a debit it
 * cannot cover is refused with InsufficientFundsError. The flag is stored on the account when it is first used and
 * the stored flag governs afterwards (changing the declaration does not rewrite existing accounts).
 */
import { BUCKET_PATTERN, checkPattern, planEntry } from './entry-plan';
import { balanceOf, balancesOf, currenciesOf, findEntry, listEntries, listPostings } from './ledger-reads';
import {
  LedgerAccountKey,
  LedgerBalance,
  LedgerEntry,
  LedgerExecutor,
  LedgerHistoryQuery,
  LedgerPage,
  NewLedgerEntry,
  OwnerPosting,
  PostResult,
} from './ledger-types';
import { postEntry } from './post-entry';
import { postEntries } from './post-entries';

export interface LedgerOptions {
  /** Buckets whose accounts may hold a negative balance; all others may not. */
  readonly negativeBuckets: readonly string[];
}

export class Ledger {
  private readonly negativeBuckets: ReadonlySet<string>;

  constructor(options: LedgerOptions) {
    for (const bucket of options.negativeBuckets) checkPattern('negativeBuckets', bucket, BUCKET_PATTERN);
    this.negativeBuckets = new Set(options.negativeBuckets);
  }

  allowsNegative(bucket: string): boolean {
    return this.negativeBuckets.has(bucket);
  }

  /**
   * Posts `entry` at most once per reference (see post-entry.ts). Throws, before any query, InvalidLedgerEntryError
   * or UnbalancedEntryError; after its one statement, InsufficientFundsError (roll the transaction back) or
   * LedgerReferenceConflictError (the reference was used for a different movement).
   */
  async post(executor: LedgerExecutor, entry: NewLedgerEntry): Promise<PostResult> {
    return postEntry(executor, planEntry(entry, this.negativeBuckets));
  }

  /**
   * Posts `entries` in order with ONE statement and reads nothing back (post-entries.ts): for a caller that needs
   * only to know, per entry, whether this call created it (false: its reference was stored already, or came
   * earlier in `entries`). Same refusals as `post`, for the batch as a whole: InsufficientFundsError when an entry,
   * at its place in the sequence, would take a guarded bucket below zero (roll the transaction back), and
   * LedgerReferenceConflictError when a repeated reference is a different movement.
   */
  async postAll(executor: LedgerExecutor, entries: readonly NewLedgerEntry[]): Promise<boolean[]> {
    return postEntries(executor, entries.map((entry) => planEntry(entry, this.negativeBuckets)));
  }

  balance(executor: LedgerExecutor, account: LedgerAccountKey): Promise<bigint> {
    return balanceOf(executor, account);
  }

  balances(executor: LedgerExecutor, ownerId: string, currency?: string): Promise<LedgerBalance[]> {
    return balancesOf(executor, ownerId, currency);
  }

  currencies(executor: LedgerExecutor, ownerId: string): Promise<string[]> {
    return currenciesOf(executor, ownerId);
  }

  entry(executor: LedgerExecutor, reference: string): Promise<LedgerEntry | undefined> {
    return findEntry(executor, reference);
  }

  entries(executor: LedgerExecutor, query: LedgerHistoryQuery): Promise<LedgerPage<LedgerEntry>> {
    return listEntries(executor, query);
  }

  postings(executor: LedgerExecutor, query: LedgerHistoryQuery): Promise<LedgerPage<OwnerPosting>> {
    return listPostings(executor, query);
  }
}
