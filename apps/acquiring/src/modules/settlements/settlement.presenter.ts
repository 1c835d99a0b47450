import { SettlementView } from '@paygrid/contracts';
import { formatAmount } from '@paygrid/money';
import { Settlement } from './settlement.types';

/** A settlement as the API lists it and acquiring.settlement.succeeded carries it: gross, fee and net in its currency. */
export function presentSettlement(settlement: Settlement): SettlementView {
  const amount = (minor: bigint) => formatAmount(minor, settlement.currency);
  return {
    settlement_id: settlement.id,
    settlement_batch_id: settlement.batchId,
    payment_intent_id: settlement.intentId,
    payment_attempt_id: settlement.attemptId,
    merchant_order_id: settlement.merchantOrderId,
    currency: settlement.currency,
    amount: amount(settlement.amountMinor),
    fee_amount: amount(settlement.feeMinor),
    net_amount: amount(settlement.netMinor),
    settlement_status: 'SUCCEEDED',
    settled_time: settlement.settledAt.toISOString(),
    create_time: settlement.createdAt.toISOString(),
  };
}
