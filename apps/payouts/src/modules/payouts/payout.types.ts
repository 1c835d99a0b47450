import { PayoutStatus } from '@paygrid/contracts';
import { minorUnitsFromDb } from '@paygrid/money';

/** A payout (spec 2.6): an amount leaving an account's available balance, to its bank or internally. */
export type PayoutDestination = 'BANK_ACCOUNT' | 'INTERNAL';

export interface Payout {
  id: string;
  accountId: string;
  masterAccountId: string;
  currency: string;
  amountMinor: bigint;
  statementDescriptor: string;
  internalNote: string;
  destination: PayoutDestination;
  bankAccountId: string | null;
  payoutAccountId: string | null;
  status: PayoutStatus;
  failureReason: string;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

export interface PayoutRow {
  payout_id: string;
  account_id: string;
  master_account_id: string;
  currency: string;
  amount_minor: string;
  statement_descriptor: string;
  internal_note: string;
  destination: PayoutDestination;
  bank_account_id: string | null;
  payout_account_id: string | null;
  status: PayoutStatus;
  failure_reason: string;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

export function toPayout(row: PayoutRow): Payout {
  return {
    id: row.payout_id,
    accountId: row.account_id,
    masterAccountId: row.master_account_id,
    currency: row.currency,
    amountMinor: minorUnitsFromDb(row.amount_minor),
    statementDescriptor: row.statement_descriptor,
    internalNote: row.internal_note,
    destination: row.destination,
    bankAccountId: row.bank_account_id,
    payoutAccountId: row.payout_account_id,
    status: row.status,
    failureReason: row.failure_reason,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    completedAt: row.completed_at === null ? null : new Date(row.completed_at),
  };
}

export interface PayoutFilter {
  accountId: string;
  status?: PayoutStatus;
  createdFrom?: Date;
  createdTo?: Date;
}
