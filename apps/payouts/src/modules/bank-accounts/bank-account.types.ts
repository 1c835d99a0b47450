import { BankAccountStatus, BankCodeType } from '@paygrid/contracts';

/** A settlement bank account (spec 2.5): where external payouts of one account in one currency go. */
export interface BankAccount {
  id: string;
  accountId: string;
  currency: string;
  accountNumber: string;
  bankName: string;
  swiftCode: string;
  bankCountryCode: string;
  bankAddress: string;
  bankCodeType: BankCodeType | null;
  bankCodeValue: string | null;
  bankBranchCode: string | null;
  status: BankAccountStatus;
  createdAt: Date;
  updatedAt: Date;
}

/** The bank details a merchant gives (create and update), camelCase. */
export type BankDetails = Pick<
  BankAccount,
  'accountNumber' | 'bankName' | 'swiftCode' | 'bankCountryCode' | 'bankAddress' | 'bankCodeType' | 'bankCodeValue' | 'bankBranchCode'
>;

export interface BankAccountRow {
  bank_account_id: string;
  account_id: string;
  currency: string;
  account_number: string;
  bank_name: string;
  swift_code: string;
  bank_country_code: string;
  bank_address: string;
  bank_code_type: BankCodeType | null;
  bank_code_value: string | null;
  bank_branch_code: string | null;
  account_status: BankAccountStatus;
  created_at: Date;
  updated_at: Date;
}

export function toBankAccount(row: BankAccountRow): BankAccount {
  return {
    id: row.bank_account_id,
    accountId: row.account_id,
    currency: row.currency,
    accountNumber: row.account_number,
    bankName: row.bank_name,
    swiftCode: row.swift_code,
    bankCountryCode: row.bank_country_code,
    bankAddress: row.bank_address,
    bankCodeType: row.bank_code_type,
    bankCodeValue: row.bank_code_value,
    bankBranchCode: row.bank_branch_code,
    status: row.account_status,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/**
 * The sandbox's bank check (docs/payouts.md, sandbox triggers): an account number containing
 * `INVALID` (any case) is marked Invalid, as a real bank's validation would; anything else is Valid.
 */
export function sandboxAccountStatus(accountNumber: string): BankAccountStatus {
  return /invalid/i.test(accountNumber) ? 'Invalid' : 'Valid';
}
