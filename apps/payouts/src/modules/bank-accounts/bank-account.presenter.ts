import { BankAccountView } from '@paygrid/contracts';
import { BankAccount } from './bank-account.types';

/** Domain → wire (spec 2.5, wire-compat §9.12): optional bank codes are "" when absent. */
export function presentBankAccount(account: BankAccount, accountName: string): BankAccountView {
  return {
    id: account.id,
    currency: account.currency,
    account_number: account.accountNumber,
    bank_name: account.bankName,
    swift_code: account.swiftCode,
    bank_country_code: account.bankCountryCode,
    bank_address: account.bankAddress,
    bank_code_type: account.bankCodeType ?? '',
    bank_code_value: account.bankCodeValue ?? '',
    bank_branch_code: account.bankBranchCode ?? '',
    account_name: accountName,
    account_status: account.status,
    create_time: account.createdAt.toISOString(),
    update_time: account.updatedAt.toISOString(),
  };
}
