import { BalanceView, BankAccountView, CreatePayoutPayload, PayoutView } from '@paygrid/contracts';

/** Examples of the API reference for the payout routes (typed: they cannot drift from the views). */
const BANK_DETAILS = {
  currency: 'USD',
  account_number: '000123456789',
  bank_name: 'Sandbox Bank',
  swift_code: 'CHASUS33',
  bank_country_code: 'US',
  bank_address: '1 Main Street, New York, NY 10001',
  bank_code_type: 'aba',
  bank_code_value: '021000021',
} as const;

const bankAccount: BankAccountView = {
  id: '0f8b3c2e-4d5a-4b6c-8d7e-9f0a1b2c3d4e',
  ...BANK_DETAILS,
  bank_branch_code: '',
  account_name: 'Acme Trading Pte Ltd',
  account_status: 'Valid',
  create_time: '2026-03-01T10:00:00.000Z',
  update_time: '2026-03-01T10:00:00.000Z',
};

const createPayout: CreatePayoutPayload = {
  payout_currency: 'USD',
  payout_amount: '150.00',
  statement_descriptor: 'ACME WEEKLY',
  internal_note: 'week 9',
};

const payout: PayoutView = {
  payout_id: 'po_01JNQ8Z3K4W5X6Y7Z8A9B0C1D2',
  payout_currency: 'USD',
  payout_amount: '150.00',
  statement_descriptor: 'ACME WEEKLY',
  payout_status: 'INITIATED',
  internal_note: 'week 9',
  payout_account_id: '',
  bank_account_id: bankAccount.id,
  failure_reason: '',
  create_time: '2026-03-01T10:05:00.000Z',
  update_time: '2026-03-01T10:05:00.000Z',
  completed_time: '',
};

const balance: BalanceView = { currency: 'USD', available_balance: '1250.00', pending_balance: '75.50' };

export const PAYOUT_EXAMPLES = { createBankAccount: BANK_DETAILS, bankAccount, createPayout, payout, balance };
