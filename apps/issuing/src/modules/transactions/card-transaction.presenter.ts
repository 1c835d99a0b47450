import { CardCurrency, CardTransactionView, SimulatedTransactionView } from '@paygrid/contracts';
import { CardTransaction } from './card-transaction.types';

/** Amounts as strings of major units with two decimals (wire-compat §11.11: billing_amount "10.00"). */
export function majorString(minor: bigint): string {
  const magnitude = minor < 0n ? -minor : minor;
  return `${minor < 0n ? '-' : ''}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, '0')}`;
}

/** Domain → wire (wire-compat §11.11); the short id is the row's sequence, stable and human-sized. */
export function presentCardTransaction(transaction: CardTransaction): CardTransactionView {
  const t = transaction;
  return {
    card_id: t.cardId,
    card_number: t.maskedNumber,
    cardholder_id: t.cardholderId ?? '',
    transaction_id: t.transactionId,
    short_transaction_id: `CT${String(t.shortSequence).padStart(10, '0')}`,
    ...(t.originalTransactionId ? { original_transaction_id: t.originalTransactionId } : {}),
    transaction_type: t.type,
    transaction_fee: '0.00',
    transaction_fee_currency: t.billingCurrency as CardCurrency,
    fee_pass_through: 'N',
    card_available_balance: majorString(t.cardAvailableMinor),
    ...(t.authorizationCode ? { authorization_code: t.authorizationCode } : {}),
    billing_amount: majorString(t.billingAmountMinor),
    billing_currency: t.billingCurrency as CardCurrency,
    transaction_amount: majorString(t.transactionAmountMinor),
    transaction_currency: t.transactionCurrency,
    transaction_time: t.transactionTime.toISOString(),
    ...(t.postedTime ? { posted_time: t.postedTime.toISOString() } : {}),
    ...(t.merchantName !== null
      ? {
          merchant_data: {
            category_code: t.merchantCategoryCode ?? '',
            city: t.merchantCity ?? '',
            country: t.merchantCountry ?? '',
            name: t.merchantName,
          },
        }
      : {}),
    ...(t.description ? { description: t.description } : {}),
    transaction_status: t.status,
  };
}

/** The simulators answer the transaction with `failure_reason` when it was declined (wire-compat §12). */
export function presentSimulated(transaction: CardTransaction): SimulatedTransactionView {
  const view = presentCardTransaction(transaction);
  return transaction.status === 'DECLINED' && transaction.description ? { ...view, failure_reason: transaction.description } : view;
}
