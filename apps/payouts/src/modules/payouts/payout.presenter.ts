import { PayoutView } from '@paygrid/contracts';
import { formatAmount } from '@paygrid/money';
import { Payout } from './payout.types';

/** Domain → wire (spec 2.6, wire-compat §9.11): `completed_time` is "" until COMPLETED. */
export function presentPayout(payout: Payout): PayoutView {
  return {
    payout_id: payout.id,
    payout_currency: payout.currency,
    payout_amount: formatAmount(payout.amountMinor, payout.currency),
    statement_descriptor: payout.statementDescriptor,
    payout_status: payout.status,
    internal_note: payout.internalNote,
    payout_account_id: payout.payoutAccountId ?? '',
    bank_account_id: payout.bankAccountId ?? '',
    failure_reason: payout.failureReason,
    create_time: payout.createdAt.toISOString(),
    update_time: payout.updatedAt.toISOString(),
    completed_time: payout.completedAt?.toISOString() ?? '',
  };
}
