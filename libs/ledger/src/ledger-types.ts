/**
 * Why: the shapes a service hands to the ledger and gets back, in one place, so payouts and issuing speak the
 * same words. Amounts are signed bigint minor units (`amountMinor`, as in @paygrid/money's Money, so a Money can
 * be spread into a posting); a positive amount adds to the bucket's balance, a negative one takes from it. A
 * balance is the sum of its account's postings. Nothing here is ever a float.
 */
import type { SqlExecutor } from '@paygrid/state-machine';

/** One ledger account: a bucket of one owner in one currency, e.g. (acct_1, USD, available). */
export interface LedgerAccountKey {
  readonly ownerId: string;
  readonly currency: string;
  readonly bucket: string;
}

/** One line of a new entry. Spread a Money in: `{ ownerId, bucket, ...negateMoney(amount) }`. */
export interface NewPosting extends LedgerAccountKey {
  readonly amountMinor: bigint;
}

/** JSON values only: metadata is stored as jsonb, and a bigint has no JSON form (store it as a string). */
export type LedgerJson =
  string | number | boolean | null | readonly LedgerJson[] | { readonly [key: string]: LedgerJson };

export interface NewLedgerEntry {
  /**
   * What makes the entry happen at most once: the source event id, command id or a derived key such as
   * `payout:po_123:reserve`. Unique across the database; a repeat posts nothing.
   */
  readonly reference: string;
  /** What moved the money, for listings and reports: `payment.captured`, `payout.reserved`, ... */
  readonly kind: string;
  /** When it happened in the business sense (the source event's time); defaults to the database's now(). */
  readonly occurredAt?: Date;
  readonly metadata?: { readonly [key: string]: LedgerJson };
  /** At least two lines; per currency they must sum to zero. */
  readonly postings: readonly NewPosting[];
}

export interface LedgerPosting extends LedgerAccountKey {
  readonly postingId: string;
  /** 1-based position of the line in its entry. */
  readonly line: number;
  readonly amountMinor: bigint;
  /** The account's balance once the whole entry was applied (a running balance, "ending balance"). */
  readonly balanceAfterMinor: bigint;
}

/** What an entry is, without its lines. */
export interface LedgerEntryHeader {
  readonly entryId: string;
  readonly reference: string;
  readonly kind: string;
  readonly occurredAt: Date;
  readonly recordedAt: Date;
  readonly metadata: { readonly [key: string]: LedgerJson };
}

export interface LedgerEntry extends LedgerEntryHeader {
  readonly postings: readonly LedgerPosting[];
}

export interface PostResult {
  readonly entry: LedgerEntry;
  /** false when the reference had been posted before: nothing moved this time. */
  readonly created: boolean;
}

export interface LedgerBalance extends LedgerAccountKey {
  readonly balanceMinor: bigint;
  readonly allowsNegative: boolean;
  readonly createdAt: Date;
  /** The last time a posting changed this balance (issuing's `last_trade_time`). */
  readonly updatedAt: Date;
}

/** A posting of the owner, with its entry: one line of a transaction listing. */
export interface OwnerPosting extends LedgerPosting, LedgerEntryHeader {}

export interface LedgerHistoryQuery {
  readonly ownerId: string;
  readonly currency?: string;
  readonly buckets?: readonly string[];
  readonly kinds?: readonly string[];
  readonly reference?: string;
  /** Inclusive lower bound on occurredAt. */
  readonly occurredFrom?: Date;
  /** Exclusive upper bound on occurredAt. */
  readonly occurredBefore?: Date;
  /** From 1. Range rules (decisions §4) are the caller's; the ledger only needs positive integers. */
  readonly pageNumber: number;
  readonly pageSize: number;
}

export interface LedgerPage<T> {
  readonly items: readonly T[];
  readonly totalItems: number;
}

/**
 * Anything with `query(sql, params)`: the transaction's TypeORM EntityManager (platform's `Executor`), a
 * QueryRunner, a pg Client.
 */
export type LedgerExecutor = SqlExecutor;
