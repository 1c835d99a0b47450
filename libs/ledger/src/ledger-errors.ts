/**
 * Why: callers turn ledger refusals into API errors (an insufficient balance is a clear 400, not a 500), so each
 * refusal is its own class carrying the facts a message needs. All extend LedgerError. InsufficientFundsError is
 * thrown after the ledger has written inside the caller's transaction: that transaction must roll back (it cannot
 * commit anyway, see ledger-tables.ts), which every `dataSource.transaction(...)` does when the error propagates.
 */
import { LedgerAccountKey } from './ledger-types';

export abstract class LedgerError extends Error {}

/** The entry is malformed (missing reference, bad bucket name, zero amount, ...): a bug in the caller. */
export class InvalidLedgerEntryError extends LedgerError {
  override readonly name = 'InvalidLedgerEntryError';

  constructor(readonly reason: string) {
    super(`invalid ledger entry: ${reason}`);
  }
}

/** The postings of one currency do not sum to zero. Thrown before the database is touched. */
export class UnbalancedEntryError extends LedgerError {
  override readonly name = 'UnbalancedEntryError';

  constructor(
    readonly reference: string,
    readonly currency: string,
    readonly sumMinor: bigint,
  ) {
    super(
      `ledger entry ${JSON.stringify(reference)} does not balance: ${currency} postings sum to ${sumMinor}`,
    );
  }
}

export interface RefusedDebit {
  readonly account: LedgerAccountKey;
  /** The net amount the entry tried to take from the account (positive). */
  readonly debitMinor: bigint;
}

/** A bucket that may not go negative does not cover the entry's debit on it. */
export class InsufficientFundsError extends LedgerError {
  override readonly name = 'InsufficientFundsError';
  /** The first refused account (sorted by owner, currency, bucket); `refused` lists all of them. */
  readonly account: LedgerAccountKey;
  readonly debitMinor: bigint;

  constructor(
    readonly reference: string,
    readonly refused: readonly RefusedDebit[],
  ) {
    const names = refused.map(
      ({ account, debitMinor }) => `${describeAccount(account)} (debit ${debitMinor})`,
    );
    super(`insufficient funds for ledger entry ${JSON.stringify(reference)}: ${names.join(', ')}`);
    this.account = refused[0].account;
    this.debitMinor = refused[0].debitMinor;
  }
}

/** The reference was posted before with other postings or another kind: two different movements share a key. */
export class LedgerReferenceConflictError extends LedgerError {
  override readonly name = 'LedgerReferenceConflictError';

  constructor(
    readonly reference: string,
    readonly existingEntryId: string,
  ) {
    super(
      `ledger reference ${JSON.stringify(reference)} was already posted as entry ${existingEntryId} with different postings`,
    );
  }
}

export function describeAccount(account: LedgerAccountKey): string {
  return `${account.ownerId}/${account.currency}/${account.bucket}`;
}
