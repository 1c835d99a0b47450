/**
 * @paygrid/ledger: the double-entry ledger that payouts and issuing keep their balances in. Tables in the owning
 * service's database (ledgerTablesSql / createLedgerTablesMigration), posting and reads through the service's own
 * transaction (Ledger), and the audit that recomputes everything from the postings (verifyLedger). See
 * docs/ledger.md.
 */
export { Ledger } from './ledger';
export type { LedgerOptions } from './ledger';
export { createLedgerTablesMigration, dropLedgerTablesSql, ledgerTablesSql } from './ledger-tables';
export { describeDiscrepancy, verifyLedger } from './verify-ledger';
export type { LedgerDiscrepancy } from './verify-ledger';
export { bucketTotalsAgainst, positiveTotals } from './audit-queries';
export type { BucketTotal, BucketTotalMismatch } from './audit-queries';
export {
  InsufficientFundsError,
  InvalidLedgerEntryError,
  LedgerError,
  LedgerReferenceConflictError,
  UnbalancedEntryError,
  describeAccount,
} from './ledger-errors';
export type { RefusedDebit } from './ledger-errors';
export { BUCKET_PATTERN, KIND_PATTERN, MAX_POSTINGS_PER_ENTRY, MAX_REFERENCE_LENGTH } from './entry-plan';
export type {
  LedgerAccountKey,
  LedgerBalance,
  LedgerEntry,
  LedgerEntryHeader,
  LedgerExecutor,
  LedgerHistoryQuery,
  LedgerJson,
  LedgerPage,
  LedgerPosting,
  NewLedgerEntry,
  NewPosting,
  OwnerPosting,
  PostResult,
} from './ledger-types';
