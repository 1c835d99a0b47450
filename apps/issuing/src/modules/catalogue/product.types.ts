import { CardCurrency, CardForm, CardMode, KycLevel, ProductStatus, RequiredField } from '@paygrid/contracts';

/** A card product of one account (domain shape; money in minor units). */
export interface Product {
  productId: string;
  accountId: string;
  catalogueKey: string;
  modeType: CardMode;
  cardBin: string;
  cardScheme: string;
  cardForms: CardForm[];
  currencies: CardCurrency[];
  maxCardQuota: number;
  maxCardsPerCardholder: number;
  noPinCeilingsMinor: Partial<Record<CardCurrency, bigint>>;
  productStatus: ProductStatus;
  kycLevel: KycLevel;
  requiredFields: RequiredField[];
  cardLimitRequired: boolean;
  cardLimitMaxMinor: bigint;
  allowedRiskControls: string[];
  supportsCardArt: boolean;
  oneTimeRequiresExpiry: boolean;
  oneTimeMaxDays: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface CardArt {
  cardArtId: string;
  accountId: string;
  name: string;
  isDefault: boolean;
  createdAt: Date;
}

export type ProductRow = Record<string, unknown>;

export function productFromRow(row: ProductRow): Product {
  const ceilings = row.no_pin_ceilings as Record<string, string>;
  return {
    productId: row.product_id as string,
    accountId: row.account_id as string,
    catalogueKey: row.catalogue_key as string,
    modeType: row.mode_type as CardMode,
    cardBin: row.card_bin as string,
    cardScheme: row.card_scheme as string,
    cardForms: row.card_forms as CardForm[],
    currencies: row.currencies as CardCurrency[],
    maxCardQuota: Number(row.max_card_quota),
    maxCardsPerCardholder: Number(row.max_cards_per_cardholder),
    noPinCeilingsMinor: Object.fromEntries(Object.entries(ceilings).map(([currency, minor]) => [currency, BigInt(minor)])),
    productStatus: row.product_status as ProductStatus,
    kycLevel: row.kyc_level as KycLevel,
    requiredFields: row.required_fields as RequiredField[],
    cardLimitRequired: row.card_limit_required as boolean,
    cardLimitMaxMinor: BigInt(row.card_limit_max_minor as string),
    allowedRiskControls: row.allowed_risk_controls as string[],
    supportsCardArt: row.supports_card_art as boolean,
    oneTimeRequiresExpiry: row.one_time_requires_expiry as boolean,
    oneTimeMaxDays: Number(row.one_time_max_days),
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
  };
}

export function cardArtFromRow(row: Record<string, unknown>): CardArt {
  return {
    cardArtId: row.card_art_id as string,
    accountId: row.account_id as string,
    name: row.name as string,
    isDefault: row.is_default as boolean,
    createdAt: row.created_at as Date,
  };
}
