import { CardArtView, CardProductView } from '@paygrid/contracts';
import { toMajorNumber } from '@paygrid/money';
import { CardArt, Product } from './product.types';

/** Domain → wire (spec 2.7; no_pin_payment_amount amounts are strings, decisions §1). */
export function presentProduct(product: Product): CardProductView {
  return {
    product_id: product.productId,
    mode_type: product.modeType,
    card_bin: product.cardBin,
    card_form: product.cardForms,
    max_card_quota: product.maxCardQuota,
    card_scheme: product.cardScheme,
    no_pin_payment_amount: Object.entries(product.noPinCeilingsMinor).map(([currency, minor]) => ({
      amount: toMajorNumber(minor as bigint).toFixed(2),
      currency,
    })),
    card_currency: product.currencies,
    create_time: product.createdAt.toISOString(),
    update_time: product.updatedAt.toISOString(),
    product_status: product.productStatus,
    kyc_level: product.kycLevel,
    required_fields: product.requiredFields,
  };
}

export function presentCardArt(art: CardArt): CardArtView {
  return { card_art_id: art.cardArtId, name: art.name, is_default: art.isDefault, create_time: art.createdAt.toISOString() };
}
