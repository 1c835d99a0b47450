import 'reflect-metadata';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';
import type { Page } from './acquiring';
import { defineCommand, NoPayload, returns } from './command-definition';
import { CardCurrency, IssuingAmount } from './issuing';
import { Timestamp } from './validation/field-rules';
import { PageQueryPayload } from './validation/page-query';

/**
 * Card transactions of the issuing service (issue 11, part B; wire-compat §11.11, §11.12, §12; spec 6, 7.6;
 * docs/issuing.md "Card transactions"): the sandbox simulators that run the real authorization path (authorize,
 * reverse, refund, chargeback), the card transactions API, and the account's real-time decision endpoint.
 *
 * The payload classes are the shape rules; what the spec answers with its own envelope B messages ("MCC is
 * error", "Invalid channel code") needs no stored state but is the spec's wording, so the service decides it.
 */

/** What a card transaction is (wire `transaction_type`). */
export const CARD_TRANSACTION_TYPES = ['AUTHORIZATION', 'REVERSAL', 'REFUND', 'CHARGEBACK_CREDIT', 'CHARGEBACK_DEBIT'] as const;
export type CardTransactionType = (typeof CARD_TRANSACTION_TYPES)[number];

/**
 * Wire `transaction_status`: APPROVED, DECLINED, PENDING (wire-compat §11.11) and REVERSED (the reversal
 * simulator's fixture). An approved authorization stays APPROVED; `posted_time` says it cleared.
 */
export const CARD_TRANSACTION_STATUSES = ['APPROVED', 'DECLINED', 'PENDING', 'REVERSED'] as const;
export type CardTransactionStatus = (typeof CARD_TRANSACTION_STATUSES)[number];

/** How the card was presented (our extension of the simulator: the risk controls need it). */
export const AUTHORIZATION_CHANNELS = ['ONLINE', 'CONTACTLESS', 'CHIP', 'ATM'] as const;
export type AuthorizationChannel = (typeof AUTHORIZATION_CHANNELS)[number];

/** What the real-time decision endpoint's owner chose for when it does not answer in time. */
export const DECISION_DEFAULTS = ['APPROVE', 'DECLINE'] as const;
export type DecisionDefault = (typeof DECISION_DEFAULTS)[number];

/** Text Postgres can store (a NUL would fail the write). */
const NO_NUL = Matches(/^[^\u0000]*$/, { message: '$property must not contain NUL characters' });

// ---------------------------------------------------------------------------------------------------
// Simulators (wire-compat §12; sandbox only)
// ---------------------------------------------------------------------------------------------------

export class SimulateAuthorizationPayload {
  @IsUUID() card_id!: string;
  @IssuingAmount() transaction_amount!: number;
  @IsString() @Matches(/^[A-Z]{3}$/, { message: '$property must be an ISO 4217 code' }) transaction_currency!: string;
  @IsString() @MaxLength(100) @NO_NUL merchant_name!: string;
  /** 4 numeric digits; anything else is the spec's envelope B "MCC is error" (decided by the service). */
  @IsString() @MaxLength(16) @NO_NUL merchant_category_code!: string;
  /** APPROVED runs the authorization path; DECLINED simulates a network decline (nothing held). */
  @IsIn(['APPROVED', 'DECLINED']) transaction_status!: 'APPROVED' | 'DECLINED';
  /** Our extension: how the card is presented (default ONLINE); an unknown one is "Invalid channel code". */
  @IsOptional() @IsString() @MaxLength(16) @NO_NUL channel?: string;
  @IsOptional() @IsString() @MaxLength(50) @NO_NUL merchant_city?: string;
  @IsOptional() @IsString() @Matches(/^[A-Z]{2}$/, { message: '$property must be an ISO 3166-1 alpha-2 country' }) merchant_country?: string;
}

export class TransactionRef {
  @IsUUID() transaction_id!: string;
}

/** Refund or chargeback of a cleared authorization; without `amount`, what is left of it. */
export class SimulateReturnPayload extends TransactionRef {
  @IsOptional() @IssuingAmount() amount?: number;
}

export class SimulateChargebackPayload extends SimulateReturnPayload {
  /** CREDIT gives the cardholder the money back; DEBIT takes back a credited chargeback (the merchant won). */
  @IsIn(['CREDIT', 'DEBIT']) chargeback_type!: 'CREDIT' | 'DEBIT';
}

// ---------------------------------------------------------------------------------------------------
// Card transactions API (wire-compat §11.1, §11.11)
// ---------------------------------------------------------------------------------------------------

export class ListCardTransactionsPayload extends PageQueryPayload {
  @IsOptional() @IsUUID() card_id?: string;
  @Timestamp({ optional: true }) start_time?: string;
  @Timestamp({ optional: true }) end_time?: string;
}

export interface MerchantDataView {
  category_code: string;
  city: string;
  country: string;
  name: string;
}

/** CardTransaction (wire-compat §11.11); amounts are strings of major units. */
export interface CardTransactionView {
  card_id: string;
  card_number: string;
  cardholder_id: string;
  transaction_id: string;
  short_transaction_id: string;
  original_transaction_id?: string;
  transaction_type: CardTransactionType;
  transaction_fee: string;
  transaction_fee_currency: CardCurrency;
  fee_pass_through: 'Y' | 'N';
  card_available_balance: string;
  authorization_code?: string;
  billing_amount: string;
  billing_currency: CardCurrency;
  transaction_amount: string;
  transaction_currency: string;
  transaction_time: string;
  posted_time?: string;
  merchant_data?: MerchantDataView;
  description?: string;
  transaction_status: CardTransactionStatus;
}

/** SimulatedTransaction (wire-compat §12): the card transaction with `failure_reason` when declined. */
export interface SimulatedTransactionView extends CardTransactionView {
  failure_reason?: string;
}

// ---------------------------------------------------------------------------------------------------
// Real-time authorization decisions (wire-compat §11.12)
// ---------------------------------------------------------------------------------------------------

export class SetDecisionEndpointPayload {
  @IsString()
  @MaxLength(2048)
  @IsUrl({ require_protocol: true, protocols: ['http', 'https'], require_tld: false }, { message: '$property must be an http(s) URL' })
  url!: string;
  /** What the authorization does when the endpoint does not answer within the deadline (default DECLINE). */
  @IsOptional() @IsIn(DECISION_DEFAULTS) default_decision?: DecisionDefault;
  /** How long to wait, at most 5000 ms (the network's deadline leaves no more). */
  @IsOptional() @IsInt() @Min(100) @Max(5000) timeout_ms?: number;
}

export interface DecisionEndpointView {
  url: string;
  default_decision: DecisionDefault;
  timeout_ms: number;
  status: 'ENABLED' | 'DISABLED';
  create_time: string;
  update_time: string;
}
/** The secret is shown once, when the endpoint is set (it signs every decision request). */
export interface DecisionEndpointWriteView extends DecisionEndpointView {
  signing_secret: string;
}

/**
 * The decision request body (wire-compat §11.12's decrypted fields), sent as JSON signed with HMAC-SHA512 of
 * `<timestamp>.<body>` under the endpoint's signing secret (headers `x-auth-timestamp`, `x-auth-signature`).
 */
export interface AuthorizationDecisionRequest {
  transaction_id: string;
  transaction_type: number;
  card_id: string;
  processing_code: string;
  billing_amount: number;
  transaction_amount: number;
  auth_amount: number;
  card_balance: number;
  date_of_transaction: string;
  billing_currency_code: string;
  transaction_currency_code: string;
  auth_currency_code: string;
  merchant_id: string;
  merchant_name: string;
  merchant_category_code: string;
  merchant_city: string;
  merchant_country: string;
  terminal_id: string;
  pos_entry_mode: string;
  pos_condition_code: string;
  pin_entry_capability: string;
  retrieval_reference_number: string;
  system_trace_audit_number: string;
  acquiring_institution_country_code: string;
  acquiring_institution_id: string;
  wallet_type: string;
}
/** The endpoint's answer: response_code "00" approves, anything else declines with that code. */
export interface AuthorizationDecisionResponse {
  transaction_id: string;
  response_code: string;
  partner_reference_id?: string;
}

// ---------------------------------------------------------------------------------------------------
// Commands and events
// ---------------------------------------------------------------------------------------------------

export const IssuingTransactionCommands = {
  simulateAuthorization: 'issuing.simulation.authorization',
  simulateReversal: 'issuing.simulation.reversal',
  simulateRefund: 'issuing.simulation.refund',
  simulateChargeback: 'issuing.simulation.chargeback',
  listTransactions: 'issuing.transactions.list',
  retrieveTransaction: 'issuing.transactions.retrieve',
  setDecisionEndpoint: 'issuing.decision_endpoint.set',
  retrieveDecisionEndpoint: 'issuing.decision_endpoint.retrieve',
  deleteDecisionEndpoint: 'issuing.decision_endpoint.delete',
} as const;

export const IssuingTransactionCommand = {
  simulateAuthorization: defineCommand(IssuingTransactionCommands.simulateAuthorization, {
    payload: SimulateAuthorizationPayload,
    result: returns<SimulatedTransactionView>(),
    mutates: true,
  }),
  simulateReversal: defineCommand(IssuingTransactionCommands.simulateReversal, {
    payload: TransactionRef,
    result: returns<SimulatedTransactionView>(),
    mutates: true,
  }),
  simulateRefund: defineCommand(IssuingTransactionCommands.simulateRefund, {
    payload: SimulateReturnPayload,
    result: returns<SimulatedTransactionView>(),
    mutates: true,
  }),
  simulateChargeback: defineCommand(IssuingTransactionCommands.simulateChargeback, {
    payload: SimulateChargebackPayload,
    result: returns<SimulatedTransactionView>(),
    mutates: true,
  }),
  listTransactions: defineCommand(IssuingTransactionCommands.listTransactions, {
    payload: ListCardTransactionsPayload,
    result: returns<Page<CardTransactionView>>(),
    mutates: false,
  }),
  retrieveTransaction: defineCommand(IssuingTransactionCommands.retrieveTransaction, {
    payload: TransactionRef,
    result: returns<CardTransactionView>(),
    mutates: false,
  }),
  setDecisionEndpoint: defineCommand(IssuingTransactionCommands.setDecisionEndpoint, {
    payload: SetDecisionEndpointPayload,
    result: returns<DecisionEndpointWriteView>(),
    mutates: true,
  }),
  retrieveDecisionEndpoint: defineCommand(IssuingTransactionCommands.retrieveDecisionEndpoint, {
    payload: NoPayload,
    result: returns<DecisionEndpointView>(),
    mutates: false,
  }),
  deleteDecisionEndpoint: defineCommand(IssuingTransactionCommands.deleteDecisionEndpoint, {
    payload: NoPayload,
    result: returns<DecisionEndpointView>(),
    mutates: true,
  }),
};

/** Spec 6's `issuing.transaction.*`: one event per transition of a card transaction. */
export const IssuingTransactionEvents = {
  authorization: 'issuing.transaction.authorization',
  declined: 'issuing.transaction.declined',
  reversal: 'issuing.transaction.reversal',
  clearing: 'issuing.transaction.clearing',
  refund: 'issuing.transaction.refund',
  chargebackCredit: 'issuing.transaction.chargeback.credit',
  chargebackDebit: 'issuing.transaction.chargeback.debit',
} as const;
export type IssuingTransactionEventName = (typeof IssuingTransactionEvents)[keyof typeof IssuingTransactionEvents];
