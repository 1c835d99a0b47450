import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateBy } from 'class-validator';
import type { Page } from './acquiring';
import { defineCommand, NoPayload, returns } from './command-definition';
import { AmountIn, Country, CurrencyCode, RequiredWhen, Text, Timestamp } from './validation/field-rules';
import { PagePayload } from './validation/paging';

/**
 * Commands, views and events of the payouts service: settlement bank accounts (spec 2.5, 4.3, wire-compat
 * §9.12), payouts (spec 2.6, 4.4, §9.11), payment balances (§9.10) and the ledger audit the operators' CLI
 * runs. The payload classes are THE rules: the gateway validates bodies and queries with them and the
 * service validates every command payload with them again (docs/payouts.md).
 */

// ---------------------------------------------------------------------------------------------------
// Statuses (spec 3, decisions §1 and §7)
// ---------------------------------------------------------------------------------------------------

export const PAYOUT_STATUSES = ['INITIATED', 'PROCESSING', 'COMPLETED', 'FAILED', 'FAILED_REFUNDED'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const BANK_ACCOUNT_STATUSES = ['Valid', 'Invalid'] as const;
export type BankAccountStatus = (typeof BANK_ACCOUNT_STATUSES)[number];

export const BANK_CODE_TYPES = ['aba', 'bank_code', 'sort_code', 'bsb_code', 'ifsc', 'cnaps_number'] as const;
export type BankCodeType = (typeof BANK_CODE_TYPES)[number];

// ---------------------------------------------------------------------------------------------------
// Settlement bank account rules (spec 4.3 and 8)
// ---------------------------------------------------------------------------------------------------

/** bank_code_value per bank_code_type (spec 4.3), with the sentence a refusal uses. */
export const BANK_CODE_FORMATS: Record<BankCodeType, { pattern: RegExp; rule: string }> = {
  aba: { pattern: /^\d{9}$/, rule: 'exactly 9 digits' },
  bank_code: { pattern: /^\d{3}$/, rule: 'exactly 3 digits' },
  sort_code: { pattern: /^\d{6}$/, rule: 'exactly 6 digits' },
  bsb_code: { pattern: /^\d{6}$/, rule: 'exactly 6 digits' },
  ifsc: { pattern: /^[A-Z]{4}0[A-Z0-9]{6}$/, rule: 'exactly 11 characters: 4 letters A-Z, the digit 0, then 6 letters or digits' },
  cnaps_number: { pattern: /^\d{12}$/, rule: 'exactly 12 digits' },
};

/** Which bank_code_type a settlement account must carry (spec 4.3), or undefined when none is required. */
export function requiredBankCodeType(currency: unknown, bankCountry: unknown): BankCodeType | undefined {
  if (currency === 'USD' && bankCountry === 'US') return 'aba';
  if (currency === 'CAD' || currency === 'HKD') return 'bank_code';
  if (currency === 'GBP') return 'sort_code';
  if (currency === 'AUD') return 'bsb_code';
  if (currency === 'INR') return 'ifsc';
  if (currency === 'CNH' && bankCountry === 'CN') return 'cnaps_number';
  return undefined;
}

const REQUIRED_TYPE_EXPLANATION =
  'for this currency and bank country (aba for USD in US, bank_code for CAD and HKD, sort_code for GBP, bsb_code for AUD, ifsc for INR, cnaps_number for CNH in CN)';

type BankFields = { currency?: unknown; bank_country_code?: unknown; bank_code_type?: unknown };

/** The type given must be the one the currency and country call for (when they call for one). */
const MatchesRequiredBankCodeType = (): PropertyDecorator =>
  ValidateBy({
    name: 'matchesRequiredBankCodeType',
    validator: {
      validate: (value: unknown, args) => {
        const fields = args?.object as BankFields;
        const required = requiredBankCodeType(fields.currency, fields.bank_country_code);
        return required === undefined || value === required;
      },
      defaultMessage: (args) => {
        const fields = args?.object as BankFields;
        return `$property must be ${requiredBankCodeType(fields.currency, fields.bank_country_code)} for ${String(fields.currency)} accounts${
          fields.currency === 'USD' || fields.currency === 'CNH' ? ` in ${String(fields.bank_country_code)}` : ''
        }`;
      },
    },
  });

/** bank_code_value in the exact format of the bank_code_type beside it. */
const MatchesBankCodeFormat = (): PropertyDecorator =>
  ValidateBy({
    name: 'matchesBankCodeFormat',
    validator: {
      validate: (value: unknown, args) => {
        const format = BANK_CODE_FORMATS[(args?.object as BankFields).bank_code_type as BankCodeType];
        return format === undefined || (typeof value === 'string' && format.pattern.test(value));
      },
      defaultMessage: (args) => {
        const type = (args?.object as BankFields).bank_code_type as BankCodeType;
        return `$property must be ${BANK_CODE_FORMATS[type].rule} for bank_code_type ${type}`;
      },
    },
  });

const needsBankCodeType = (fields: Record<string, unknown>) =>
  requiredBankCodeType(fields.currency, fields.bank_country_code) !== undefined || fields.bank_code_value !== undefined;

/**
 * The bank details of a settlement account: the body of update (spec 4.3) and, with `currency`, of create
 * (wire-compat §9.12). The currency-dependent rules (which bank_code_type, bank_branch_code for CAD) apply
 * when a currency is beside the fields: at create from the body, at update from the stored account (the
 * service validates the merged fields with BankAccountFields).
 */
export class UpdateBankAccountBody {
  /** Spec 8: 5 to 60 characters, only letters and digits (an IBAN is written without spaces). */
  @IsString()
  @Matches(/^[A-Za-z0-9]+$/, { message: '$property must contain only letters and digits' })
  @MinLength(5)
  @MaxLength(60)
  account_number!: string;

  @Text({ max: 140 }) bank_name!: string;

  /** A SWIFT/BIC code: 8 or 11 characters, within the spec's 8 to 11 (ISO 9362 has no 9 or 10). */
  @IsString()
  @Matches(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, {
    message: '$property must be a SWIFT/BIC code: 6 letters, then 2 letters or digits, optionally 3 more (upper case)',
  })
  @MinLength(8)
  @MaxLength(11)
  swift_code!: string;

  @Country() bank_country_code!: string;

  @Text({ max: 255 }) bank_address!: string;

  @RequiredWhen(needsBankCodeType, REQUIRED_TYPE_EXPLANATION)
  @IsIn(BANK_CODE_TYPES, { message: `$property must be one of ${BANK_CODE_TYPES.join(', ')}` })
  @MatchesRequiredBankCodeType()
  // Typed string, not BankCodeType: decorator metadata of a union is Object, which the API reference
  // would render as a reference to a schema named Object. @IsIn keeps it to the six values.
  bank_code_type?: string;

  @RequiredWhen((fields) => fields.bank_code_type !== undefined, 'when bank_code_type is given')
  @IsString()
  @MatchesBankCodeFormat()
  bank_code_value?: string;

  @RequiredWhen((fields) => fields.currency === 'CAD', 'for CAD accounts')
  @IsString()
  @Matches(/^[A-Za-z0-9]{1,20}$/, { message: '$property must be 1 to 20 letters or digits' })
  bank_branch_code?: string;
}

/** The fields of a settlement account with its currency: create's body, and what update re-checks. */
export class BankAccountFields extends UpdateBankAccountBody {
  @CurrencyCode() currency!: string;
}

export class CreateBankAccountPayload extends BankAccountFields {}

export class BankAccountIdPayload {
  @IsString()
  @Matches(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: '$property must be a uuid' })
  id!: string;
}

export class UpdateBankAccountPayload extends UpdateBankAccountBody {
  @IsString()
  @Matches(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: '$property must be a uuid' })
  id!: string;
}

export class ListBankAccountsPayload extends PagePayload {}

// ---------------------------------------------------------------------------------------------------
// Payouts (spec 2.6, 4.4; wire-compat §9.11)
// ---------------------------------------------------------------------------------------------------

export const STATEMENT_DESCRIPTOR_MAX = 15;
export const INTERNAL_NOTE_MAX = 255;

export class CreatePayoutPayload {
  @CurrencyCode() payout_currency!: string;

  @AmountIn('payout_currency') payout_amount!: string;

  /** Spec 8: at most 15 characters, shown to the recipient bank: printable characters only. */
  @IsString()
  @Matches(/^[\x20-\x7e]+$/, { message: '$property must contain only printable ASCII characters' })
  @MinLength(1)
  @MaxLength(STATEMENT_DESCRIPTOR_MAX)
  statement_descriptor!: string;

  @IsOptional() @IsString() @MaxLength(INTERNAL_NOTE_MAX) internal_note?: string;

  /** Internal transfer to the caller's own account level: its account id (uuid) or short reference id. */
  @IsOptional()
  @IsString()
  @Matches(/^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|P\d{9})$/i, {
    message: '$property must be an account id (uuid) or a short reference id (P and 9 digits)',
  })
  payout_account_id?: string;
}

export class PayoutIdPayload {
  @IsString() @MinLength(1) @MaxLength(36) @Matches(/^[A-Za-z0-9_-]+$/, { message: '$property must be an id' }) id!: string;
}

export class ListPayoutsPayload extends PagePayload {
  @Timestamp({ optional: true }) start_time?: string;
  @Timestamp({ optional: true }) end_time?: string;

  @IsOptional()
  @IsIn(PAYOUT_STATUSES, { message: `$property must be one of ${PAYOUT_STATUSES.join(', ')}` })
  payout_status?: PayoutStatus;
}

// ---------------------------------------------------------------------------------------------------
// Balances (wire-compat §9.10)
// ---------------------------------------------------------------------------------------------------

export class BalanceCurrencyPayload {
  @CurrencyCode() currency!: string;
}

export class ListBalancesPayload extends PagePayload {}

// ---------------------------------------------------------------------------------------------------
// Views (results of the commands, `data` of the events)
// ---------------------------------------------------------------------------------------------------

export interface BankAccountView {
  id: string;
  currency: string;
  account_number: string;
  bank_name: string;
  swift_code: string;
  bank_country_code: string;
  bank_address: string;
  bank_code_type: BankCodeType | '';
  bank_code_value: string;
  bank_branch_code: string;
  /** The owning account's name (docs/payouts.md: learnt from the accounts service's events). */
  account_name: string;
  account_status: BankAccountStatus;
  create_time: string;
  update_time: string;
}

export interface PayoutView {
  payout_id: string;
  payout_currency: string;
  payout_amount: string;
  statement_descriptor: string;
  payout_status: PayoutStatus;
  internal_note: string;
  /** The receiving account of an internal transfer (its long id), or "" for a payout to the bank account. */
  payout_account_id: string;
  /** The settlement bank account an external payout goes to, or "". */
  bank_account_id: string;
  /** Why a payout failed (sandbox: `bank_rejected`), or "". */
  failure_reason: string;
  create_time: string;
  update_time: string;
  /** "" until the payout is COMPLETED (spec 2.6). */
  completed_time: string;
}

export interface BalanceView {
  currency: string;
  available_balance: string;
  pending_balance: string;
}

/** What `payouts.ledger.verify` answers: the ledger's own audit and what the CLI compares elsewhere. */
export interface LedgerAuditReport {
  /** One sentence per discrepancy inside the payouts ledger (empty: clean). */
  discrepancies: string[];
  /** Per merchant account and currency: the balances recomputed from the postings (minor units). */
  accounts: LedgerAuditAccount[];
}

export interface LedgerAuditAccount {
  account_id: string;
  master_account_id: string;
  currency: string;
  /** Recomputed from the postings (sum), as minor-unit strings. */
  available_minor: string;
  pending_minor: string;
  /** Gross amount of the acquiring settlements the ledger applied. */
  settled_minor: string;
  settlement_count: number;
}

// ---------------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------------

export const PayoutCommand = {
  createBankAccount: defineCommand('payouts.bank_accounts.create', {
    payload: CreateBankAccountPayload,
    result: returns<BankAccountView>(),
    mutates: true,
  }),
  updateBankAccount: defineCommand('payouts.bank_accounts.update', {
    payload: UpdateBankAccountPayload,
    result: returns<BankAccountView>(),
    mutates: true,
  }),
  listBankAccounts: defineCommand('payouts.bank_accounts.list', {
    payload: ListBankAccountsPayload,
    result: returns<Page<BankAccountView>>(),
    mutates: false,
  }),
  retrieveBankAccount: defineCommand('payouts.bank_accounts.retrieve', {
    payload: BankAccountIdPayload,
    result: returns<BankAccountView>(),
    mutates: false,
  }),
  createPayout: defineCommand('payouts.payouts.create', {
    payload: CreatePayoutPayload,
    result: returns<PayoutView>(),
    mutates: true,
  }),
  listPayouts: defineCommand('payouts.payouts.list', {
    payload: ListPayoutsPayload,
    result: returns<Page<PayoutView>>(),
    mutates: false,
  }),
  retrievePayout: defineCommand('payouts.payouts.retrieve', {
    payload: PayoutIdPayload,
    result: returns<PayoutView>(),
    mutates: false,
  }),
  listBalances: defineCommand('payouts.balances.list', {
    payload: ListBalancesPayload,
    result: returns<Page<BalanceView>>(),
    mutates: false,
  }),
  retrieveBalance: defineCommand('payouts.balances.retrieve', {
    payload: BalanceCurrencyPayload,
    result: returns<BalanceView>(),
    mutates: false,
  }),
  /** Operators (CLI): the ledger audit. */
  verifyLedger: defineCommand('payouts.ledger.verify', {
    payload: NoPayload,
    result: returns<LedgerAuditReport>(),
    mutates: false,
    needsActor: false,
  }),
};

// ---------------------------------------------------------------------------------------------------
// Events (spec 6; category PAYOUT), on paygrid.payouts.events, keyed by payout id
// ---------------------------------------------------------------------------------------------------

/** The event each payout status announces: creation is spec 6's `acquiring.payout.created`. */
export const PayoutEvents = {
  created: 'acquiring.payout.created',
  processing: 'payout.processing',
  completed: 'payout.completed',
  failed: 'payout.failed',
  failedRefunded: 'payout.failed_refunded',
} as const;
export type PayoutEventName = (typeof PayoutEvents)[keyof typeof PayoutEvents];

export const PAYOUT_EVENT_OF_STATUS: Record<PayoutStatus, PayoutEventName> = {
  INITIATED: PayoutEvents.created,
  PROCESSING: PayoutEvents.processing,
  COMPLETED: PayoutEvents.completed,
  FAILED: PayoutEvents.failed,
  FAILED_REFUNDED: PayoutEvents.failedRefunded,
};
