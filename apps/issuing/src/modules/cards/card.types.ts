import { AutoCancelTrigger, CardCurrency, CardMode, CardStatus, CardType, RiskControlsInput, SpendingControlInput, UsageType } from '@paygrid/contracts';

/** A card (domain shape; money in minor units). Its secrets stay ciphertexts until a use case needs them. */
export interface Card {
  cardId: string;
  accountId: string;
  masterAccountId: string;
  cardholderId: string | null;
  productId: string;
  status: CardStatus;
  formFactor: CardType;
  modeType: CardMode;
  currency: CardCurrency;
  maskedNumber: string;
  panCiphertext: string;
  cvvCiphertext: string;
  expiryMonth: number;
  expiryYear: number;
  cardLimitMinor: bigint;
  spendingControls: SpendingControlInput[];
  riskControls: RiskControlsInput;
  metadata: Record<string, string>;
  updateReason: string;
  usageType: UsageType;
  autoCancelTrigger: AutoCancelTrigger | null;
  expiryAt: Date | null;
  noPinAmountMinor: bigint;
  cardArtId: string | null;
  activationCodeHash: string | null;
  pinHash: string | null;
  issuedAt: Date | null;
  activatedAt: Date | null;
  networkProtectionAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What list and retrieve add from the cardholder row. */
export interface CardholderSummary {
  cardholderId: string;
  firstName: string;
  lastName: string;
  email: string;
}

export function cardFromRow(row: Record<string, unknown>): Card {
  return {
    cardId: row.card_id as string,
    accountId: row.account_id as string,
    masterAccountId: row.master_account_id as string,
    cardholderId: (row.cardholder_id as string | null) ?? null,
    productId: row.product_id as string,
    status: row.card_status as CardStatus,
    formFactor: row.form_factor as CardType,
    modeType: row.mode_type as CardMode,
    currency: row.currency as CardCurrency,
    maskedNumber: row.masked_number as string,
    panCiphertext: row.pan_ciphertext as string,
    cvvCiphertext: row.cvv_ciphertext as string,
    expiryMonth: Number(row.expiry_month),
    expiryYear: Number(row.expiry_year),
    cardLimitMinor: BigInt(row.card_limit_minor as string),
    spendingControls: row.spending_controls as SpendingControlInput[],
    riskControls: row.risk_controls as RiskControlsInput,
    metadata: row.metadata as Record<string, string>,
    updateReason: row.update_reason as string,
    usageType: row.usage_type as UsageType,
    autoCancelTrigger: (row.auto_cancel_trigger as AutoCancelTrigger | null) ?? null,
    expiryAt: (row.expiry_at as Date | null) ?? null,
    noPinAmountMinor: BigInt(row.no_pin_amount_minor as string),
    cardArtId: (row.card_art_id as string | null) ?? null,
    activationCodeHash: (row.activation_code_hash as string | null) ?? null,
    pinHash: (row.pin_hash as string | null) ?? null,
    issuedAt: (row.issued_at as Date | null) ?? null,
    activatedAt: (row.activated_at as Date | null) ?? null,
    networkProtectionAt: (row.network_protection_at as Date | null) ?? null,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
  };
}

export function cardholderSummaryFromRow(row: Record<string, unknown>): CardholderSummary | null {
  if (!row.h_cardholder_id) return null;
  return {
    cardholderId: row.h_cardholder_id as string,
    firstName: row.h_first_name as string,
    lastName: row.h_last_name as string,
    email: row.h_email as string,
  };
}
