import 'reflect-metadata';
import { IsIn, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';
import type { Page } from './acquiring';
import { defineCommand, returns } from './command-definition';
import { CARD_CURRENCIES, CardCurrency, IssuingAmount } from './issuing';
import { CrossFieldRules } from './validation/cross-field-rules';
import { Country, Timestamp } from './validation/field-rules';
import { PageQueryPayload } from './validation/page-query';

/**
 * The issuing money a merchant sees (issue 11, part A; wire-compat §11.10, §11.11 reports, §12 deposits; spec 6,
 * 7.6; docs/issuing.md "Balances, transfers and reports"): issuing balances and their transactions, transfers
 * between a master account and its sub-accounts, the sandbox deposit simulator, and CSV reports.
 *
 * Amounts in requests are JSON numbers in major units with at most two decimals (decisions §5); balances answer
 * decimal strings and balance transactions numbers, as the official SDK types them.
 */

// ---------------------------------------------------------------------------------------------------
// Statuses and enumerations
// ---------------------------------------------------------------------------------------------------

export const ISSUING_BALANCE_STATUSES = ['ACTIVE', 'PENDING', 'PROCESSING', 'CLOSED'] as const;
export type IssuingBalanceStatus = (typeof ISSUING_BALANCE_STATUSES)[number];

/** What moved an issuing balance (docs/issuing.md, "Balance transactions"). */
export const BALANCE_TRANSACTION_TYPES = [
  'DEPOSIT',
  'TRANSFER_IN',
  'TRANSFER_OUT',
  'TRANSFER_REVERSAL',
  'CARD_RECHARGE',
  'CARD_RECHARGE_REVERSAL',
  'CARD_WITHDRAW',
  'CARD_BALANCE_RETURN',
] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

/** A balance transaction is a posting, so it is COMPLETED once it exists; the others are accepted as filters. */
export const BALANCE_TRANSACTION_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;
export type BalanceTransactionStatus = (typeof BALANCE_TRANSACTION_STATUSES)[number];

export const TRANSFER_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;
export type IssuingTransferStatus = (typeof TRANSFER_STATUSES)[number];

export const DEPOSIT_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/** SETTLEMENT: settled movements of the account's issuing balance and cards; BALANCE_TRANSACTION: the balance's transactions. */
export const REPORT_TYPES = ['SETTLEMENT', 'BALANCE_TRANSACTION'] as const;
export type IssuingReportType = (typeof REPORT_TYPES)[number];
export const REPORT_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type IssuingReportStatus = (typeof REPORT_STATUSES)[number];
/** The longest range one report covers. */
export const REPORT_MAX_DAYS = 366;

const NO_NUL = Matches(/^[^\u0000]*$/, { message: '$property must not contain NUL characters' });

// ---------------------------------------------------------------------------------------------------
// Payloads
// ---------------------------------------------------------------------------------------------------

export class ListIssuingBalancesPayload extends PageQueryPayload {}

/** Any text: a currency the account holds no balance in is `account_balance_error` (spec 7.6), not a validation error. */
export class RetrieveIssuingBalancePayload {
  @IsString() @MinLength(1) @MaxLength(8) @NO_NUL currency!: string;
}

export class ListBalanceTransactionsPayload extends PageQueryPayload {
  /** Inclusive lower bound on the transaction's time. */
  @Timestamp({ optional: true }) start_time?: string;
  /** Exclusive upper bound on the transaction's time. */
  @Timestamp({ optional: true }) end_time?: string;
  @IsOptional() @IsIn(BALANCE_TRANSACTION_TYPES) transaction_type?: BalanceTransactionType;
  @IsOptional() @IsIn(BALANCE_TRANSACTION_STATUSES) transaction_status?: BalanceTransactionStatus;
  @IsOptional() @IsString() @MaxLength(8) @NO_NUL currency?: string;
  @IsOptional() @IsUUID() transaction_id?: string;
}

const ACCOUNT_NUMBER = /^[A-Za-z0-9]{5,60}$/;

/** wire-compat §12 `deposits.simulate`: credits the acting account's issuing balance (sandbox only). */
export class SimulateDepositPayload {
  @IssuingAmount() amount!: number;
  @IsIn(CARD_CURRENCIES) currency!: CardCurrency;
  /** Spec 8: 8 to 11 characters. */
  @IsString() @Matches(/^[A-Za-z0-9]{8,11}$/, { message: '$property must be 8 to 11 letters or digits' }) sender_swift_code!: string;
  @IsOptional() @IsString() @Matches(ACCOUNT_NUMBER, { message: '$property must be 5 to 60 letters or digits' }) receiver_account_number?: string;
  @IsOptional() @IsString() @Matches(ACCOUNT_NUMBER, { message: '$property must be 5 to 60 letters or digits' }) sender_account_number?: string;
  @Country({ optional: true }) sender_country?: string;
  @IsOptional() @IsString() @MaxLength(100) @NO_NUL sender_name?: string;
}

/** wire-compat §11.10 CreateIssuingTransfer: between a master account and one of its sub-accounts. */
export class CreateIssuingTransferPayload {
  @IsUUID() source_account_id!: string;
  @IsUUID() destination_account_id!: string;
  @IsIn(CARD_CURRENCIES) currency!: CardCurrency;
  @IssuingAmount() amount!: number;
  @IsOptional() @IsString() @MaxLength(200) @NO_NUL remark?: string;
}

export class IssuingTransferRef {
  @IsUUID() transfer_id!: string;
}

export class ListIssuingTransfersPayload extends PageQueryPayload {
  @IsOptional() @IsIn(TRANSFER_STATUSES) transfer_status?: IssuingTransferStatus;
}

function reportRangeProblems(payload: CreateIssuingReportPayload): string[] {
  const start = Date.parse(payload.start_time);
  const end = Date.parse(payload.end_time);
  if (Number.isNaN(start) || Number.isNaN(end)) return [];
  if (end <= start) return ['end_time must be after start_time'];
  if (end - start > REPORT_MAX_DAYS * 86_400_000) return [`a report covers at most ${REPORT_MAX_DAYS} days`];
  return [];
}

export class CreateIssuingReportPayload {
  @IsIn(REPORT_TYPES) report_type!: IssuingReportType;
  /** Inclusive. */
  @Timestamp() start_time!: string;
  /** Exclusive, after start_time, at most REPORT_MAX_DAYS later. */
  @Timestamp() @CrossFieldRules(reportRangeProblems) end_time!: string;
}

export class IssuingReportRef {
  @IsUUID() report_id!: string;
}

// ---------------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------------

/** wire-compat §11.10 IssuingBalance: amounts as decimal strings with two decimals. */
export interface IssuingBalanceView {
  balance_id: string;
  currency: string;
  available_balance: string;
  margin_balance: string;
  frozen_balance: string;
  create_time: string;
  last_trade_time: string;
  balance_status: IssuingBalanceStatus;
}

/** wire-compat §11.10 IssuingBalanceTransaction: amounts as numbers, signed (a debit is negative). */
export interface IssuingBalanceTransactionView {
  transaction_id: string;
  short_transaction_id: string;
  account_id: string;
  balance_id: string;
  transaction_type: string;
  currency: string;
  amount: number;
  create_time: string;
  complete_time?: string;
  transaction_status: BalanceTransactionStatus;
  ending_balance: number;
  description?: string;
}

/** wire-compat §12 SimulatedDeposit. */
export interface SimulatedDepositView {
  deposit_id: string;
  short_reference_id: string;
  amount: string;
  currency: string;
  deposit_status: DepositStatus;
  create_time: string;
  complete_time?: string;
  receiver_account_number?: string;
  sender?: { sender_name?: string; sender_country?: string; sender_account_number?: string; sender_swift_code: string };
}

export interface IssuingTransferCreatedView {
  transfer_id: string;
  short_transaction_id: string;
}

/** wire-compat §11.10 IssuingTransfer (amount a string); the data of issuing.transfer.status_changed. */
export interface IssuingTransferView {
  transfer_id: string;
  short_transaction_id: string;
  reference_id?: string;
  source_account_id: string;
  destination_account_id: string;
  amount: string;
  fee_amount: string;
  currency: string;
  transfer_status: IssuingTransferStatus;
  create_time: string;
  complete_time?: string;
  creator_id: string;
  remark?: string;
  failure_reason?: string;
}

export interface IssuingReportCreatedView {
  report_id: string;
}

/** The report as issuing.report.succeeded announces it. */
export interface IssuingReportView {
  report_id: string;
  report_type: IssuingReportType;
  report_status: IssuingReportStatus;
  start_time: string;
  end_time: string;
  create_time: string;
  complete_time?: string;
  row_count?: number;
  file_name?: string;
  /** Where the file is downloaded (relative to the API base). */
  download_path: string;
}

/** What the download command answers; the gateway sends `content` as the body with its content type. */
export interface IssuingReportFile {
  report_id: string;
  file_name: string;
  content_type: 'text/csv';
  content: string;
}

// ---------------------------------------------------------------------------------------------------
// Commands and events
// ---------------------------------------------------------------------------------------------------

export const IssuingFundsCommands = {
  listBalances: 'issuing.balances.list',
  retrieveBalance: 'issuing.balances.retrieve',
  listBalanceTransactions: 'issuing.balances.transactions',
  simulateDeposit: 'issuing.simulation.deposit',
  createTransfer: 'issuing.transfers.create',
  retrieveTransfer: 'issuing.transfers.retrieve',
  listTransfers: 'issuing.transfers.list',
  createReport: 'issuing.reports.create',
  downloadReport: 'issuing.reports.download',
} as const;

export const IssuingFundsCommand = {
  listBalances: defineCommand(IssuingFundsCommands.listBalances, {
    payload: ListIssuingBalancesPayload,
    result: returns<Page<IssuingBalanceView>>(),
    mutates: false,
  }),
  retrieveBalance: defineCommand(IssuingFundsCommands.retrieveBalance, {
    payload: RetrieveIssuingBalancePayload,
    result: returns<IssuingBalanceView>(),
    mutates: false,
  }),
  listBalanceTransactions: defineCommand(IssuingFundsCommands.listBalanceTransactions, {
    payload: ListBalanceTransactionsPayload,
    result: returns<Page<IssuingBalanceTransactionView>>(),
    mutates: false,
  }),
  simulateDeposit: defineCommand(IssuingFundsCommands.simulateDeposit, {
    payload: SimulateDepositPayload,
    result: returns<SimulatedDepositView>(),
    mutates: true,
  }),
  createTransfer: defineCommand(IssuingFundsCommands.createTransfer, {
    payload: CreateIssuingTransferPayload,
    result: returns<IssuingTransferCreatedView>(),
    mutates: true,
  }),
  retrieveTransfer: defineCommand(IssuingFundsCommands.retrieveTransfer, {
    payload: IssuingTransferRef,
    result: returns<IssuingTransferView>(),
    mutates: false,
  }),
  listTransfers: defineCommand(IssuingFundsCommands.listTransfers, {
    payload: ListIssuingTransfersPayload,
    result: returns<Page<IssuingTransferView>>(),
    mutates: false,
  }),
  createReport: defineCommand(IssuingFundsCommands.createReport, {
    payload: CreateIssuingReportPayload,
    result: returns<IssuingReportCreatedView>(),
    mutates: true,
  }),
  downloadReport: defineCommand(IssuingFundsCommands.downloadReport, {
    payload: IssuingReportRef,
    result: returns<IssuingReportFile>(),
    mutates: false,
  }),
};

export const IssuingFundsEvents = {
  transferStatusChanged: 'issuing.transfer.status_changed',
  reportSucceeded: 'issuing.report.succeeded',
} as const;
export type IssuingFundsEventName = (typeof IssuingFundsEvents)[keyof typeof IssuingFundsEvents];
