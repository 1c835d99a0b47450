import { InsufficientFundsError } from '@paygrid/ledger';
import { envelopeA, ErrorMapper, Errors } from '@paygrid/platform';

/**
 * The refusals of the payouts service, worded once (spec 7: envelope A, HTTP 400). Another account's
 * bank account or payout is reported exactly like a missing one (decisions §1).
 */
export const PayoutsErrors = {
  bankAccountNotFound: () => Errors.resourceNotFound('bank account'),
  payoutNotFound: () => Errors.resourceNotFound('payout'),
  bankAccountExists: (currency: string) =>
    envelopeA(
      'invalid_request_error',
      'bank_account_exists',
      `currency: a ${currency} settlement bank account exists already; update it (POST /v2/payment/bankaccount/{id})`,
    ),
  bankAccountMissing: (currency: string) =>
    envelopeA(
      'invalid_request_error',
      'bank_account_not_configured',
      `payout_currency: no ${currency} settlement bank account is configured; create one (POST /v2/payment/bankaccount/create)`,
    ),
  bankAccountInvalid: (currency: string) =>
    envelopeA(
      'invalid_request_error',
      'bank_account_invalid',
      `payout_currency: the ${currency} settlement bank account is Invalid; update its details before paying out`,
    ),
  notOwnAccount: () =>
    envelopeA(
      'invalid_request_error',
      'invalid_request_error',
      'payout_account_id: must be the id (long or short) of your own account level',
    ),
  insufficientBalance: () =>
    envelopeA('account_error', 'account_balance_error', 'payout_amount: exceeds the available balance in payout_currency'),
};

/**
 * Domain errors as the API errors clients see (COMMAND_ERROR_MAPPER): a payout the available balance
 * cannot cover is a 400, not a 500. The ledger refuses it after its statement ran, so the transaction
 * rolls back (the mapped error propagates) and nothing is stored but the refusal.
 */
export const mapPayoutsError: ErrorMapper = (error) =>
  error instanceof InsufficientFundsError ? PayoutsErrors.insufficientBalance() : error;
