import { CardholderStatus, CardOrderView, CardView, CardWriteView } from '@paygrid/contracts';
import { toMajorNumber } from '@paygrid/money';
import { Product } from '../catalogue/product.types';
import { CardOrder } from './card-order.repository';
import { Card, CardholderSummary } from './card.types';

/** Domain → wire (wire-compat §11.4–11.9). Only the masked number ever leaves here. */
export function presentCard(card: Card, cardholder: CardholderSummary | null, availableMinor: bigint, product?: Pick<Product, 'cardBin' | 'cardScheme'>): CardView {
  return {
    card_id: card.cardId,
    card_status: card.status,
    card_bin: product?.cardBin ?? card.maskedNumber.slice(0, 6),
    card_scheme: product?.cardScheme ?? schemeOf(card.maskedNumber),
    card_number: card.maskedNumber,
    card_name: cardholder ? `${cardholder.firstName} ${cardholder.lastName}` : '',
    card_currency: card.currency,
    card_product_id: card.productId,
    form_factor: card.formFactor,
    mode_type: card.modeType,
    card_limit: toMajorNumber(card.cardLimitMinor),
    available_balance: toMajorNumber(availableMinor),
    consumed_amount: 0,
    cardholder: cardholder
      ? { cardholder_id: cardholder.cardholderId, first_name: cardholder.firstName, last_name: cardholder.lastName, email: cardholder.email }
      : null,
    spending_controls: card.spendingControls,
    risk_controls: card.riskControls,
    metadata: card.metadata,
    update_reason: card.updateReason,
    usage_type: card.usageType,
    auto_cancel_trigger: card.autoCancelTrigger,
    expiry_at: card.expiryAt?.toISOString() ?? null,
    no_pin_payment_amount: toMajorNumber(card.noPinAmountMinor),
    card_art_id: card.cardArtId,
    network_protection: {
      status: card.networkProtectionAt ? 'ENROLLED' : 'NOT_ENROLLED',
      enrolled_time: card.networkProtectionAt?.toISOString() ?? null,
    },
    create_time: card.createdAt.toISOString(),
  };
}

export function presentCardWrite(card: Card, order: CardOrder, cardholderStatus?: CardholderStatus): CardWriteView {
  return {
    card_id: card.cardId,
    card_order_id: order.cardOrderId,
    create_time: card.createdAt.toISOString(),
    card_status: card.status,
    order_status: order.status,
    ...(cardholderStatus ? { cardholder_status: cardholderStatus } : {}),
  };
}

export function presentOrder(order: CardOrder): CardOrderView {
  return {
    card_id: order.cardId,
    card_order_id: order.cardOrderId,
    order_type: order.orderType,
    amount: toMajorNumber(order.amountMinor),
    card_currency: order.currency,
    create_time: order.createdAt.toISOString(),
    update_time: order.updatedAt.toISOString(),
    ...(order.completedAt ? { complete_time: order.completedAt.toISOString() } : {}),
    order_status: order.status,
  };
}

function schemeOf(masked: string): string {
  return masked.startsWith('4') ? 'VISA' : masked.startsWith('5') ? 'MASTERCARD' : 'UNKNOWN';
}
