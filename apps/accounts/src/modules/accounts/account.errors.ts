import { AccountStatus } from '@paygrid/contracts';
import { ApiError, envelopeA, Errors } from '@paygrid/platform';

/**
 * The refusals of the account commands (envelope A, spec 7.1). Another account's object is reported
 * exactly like a missing one (decisions §1), so these never say which of the two it was.
 */
export const AccountErrors = {
  notFound: (): ApiError => Errors.accountNotFound(),
  subAccountNotFound: (): ApiError => Errors.subAccountNotFound(),
  masterRequired: (): ApiError =>
    envelopeA(
      'account_error',
      'master_account_required',
      'only a master account can create sub-accounts; the acting account is a sub-account',
    ),
  notActive: (status: AccountStatus): ApiError =>
    envelopeA('account_error', 'account_not_active', `cannot create sub-accounts: account status is ${status}`),
};
