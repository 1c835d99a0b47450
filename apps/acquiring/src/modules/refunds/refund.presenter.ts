import { RefundView } from '@paygrid/contracts';
import { formatAmount } from '@paygrid/money';
import { Refund } from './refund.types';

/** A refund as the API returns it and its events carry it (wire-compat §9.8): no internal fields. */
export function presentRefund(refund: Refund): RefundView {
  const iso = (value: Date | null) => (value === null ? '' : value.toISOString());
  return {
    payment_refund_id: refund.id,
    payment_intent_id: refund.intentId,
    payment_attempt_id: refund.attemptId,
    amount: formatAmount(refund.amountMinor, refund.currency),
    currency: refund.currency,
    refund_status: refund.status,
    reason: refund.reason,
    metadata: refund.metadata,
    failure_code: refund.failureCode,
    create_time: iso(refund.createdAt),
    update_time: iso(refund.updatedAt),
    complete_time: iso(refund.completedAt),
  };
}
