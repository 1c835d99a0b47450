import {
  AUTO_CANCEL_TRIGGERS,
  AutoCancelTrigger,
  CardCurrency,
  CardType,
  CreateCardPayload,
  RiskControlsInput,
  SANDBOX_FAILING_CENTS,
  SpendingControlInput,
  UPDATE_REASON_MAX,
  UpdateCardBody,
} from '@paygrid/contracts';
import { MoneyFormatError, parseMajorNumber } from '@paygrid/money';
import { ApiError } from '@paygrid/platform';
import { CardErrors } from '../../common/issuing-errors';
import { Product } from '../catalogue/product.types';
import { Card } from './card.types';

/**
 * The card rules that depend on the product or the card (spec 7.3, 7.4, 8), each answered with the spec's
 * code or message. Pure: each returns the refusal to throw, or the decided values.
 */
const FORM_OF: Record<CardType, 'VIR' | 'PHY'> = { VIRTUAL: 'VIR', PHYSICAL: 'PHY' };
const DAY_MS = 86_400_000;

export interface CreateDecision {
  formFactor: CardType;
  cardLimitMinor: bigint;
  autoCancelTrigger: AutoCancelTrigger | null;
  expiryAt: Date | null;
}

export function decideCreate(product: Product, payload: CreateCardPayload, now: Date = new Date()): CreateDecision | ApiError {
  if (product.productStatus !== 'ENABLED') return CardErrors.productNotFound();
  if (!product.currencies.includes(payload.card_currency)) return CardErrors.currencyNotAllowed(payload.card_currency);
  const formFactor = payload.card_type ?? 'VIRTUAL';
  if (!product.cardForms.includes(FORM_OF[formFactor])) {
    return CardErrors.operationNotAuthorized(`the card product does not issue ${formFactor.toLowerCase()} cards`);
  }
  const controls = riskControlRefusal(product, payload.risk_controls);
  if (controls) return CardErrors.riskControlNotAllowed(controls);
  const cardLimitMinor = payload.card_limit === undefined ? 0n : parseMajorNumber(payload.card_limit, 2, { allowZero: true });
  if (product.cardLimitRequired && cardLimitMinor < 1n) return CardErrors.limitOutOfRange(`is required and at least 0.01 for BIN ${product.cardBin}`);
  if (cardLimitMinor > product.cardLimitMaxMinor) return CardErrors.limitOutOfRange(`must be at most ${formatMinor(product.cardLimitMaxMinor)}`);

  if (payload.usage_type !== 'ONE_TIME') return { formFactor, cardLimitMinor, autoCancelTrigger: null, expiryAt: null };
  if (payload.auto_cancel_trigger === undefined || payload.auto_cancel_trigger === '') return CardErrors.autoCancelTriggerEmpty();
  if (!(AUTO_CANCEL_TRIGGERS as readonly string[]).includes(payload.auto_cancel_trigger)) return CardErrors.autoCancelTriggerInvalid();
  let expiryAt: Date | null = null;
  if (payload.expiry_at === undefined || payload.expiry_at === '') {
    if (product.oneTimeRequiresExpiry) return CardErrors.expiryAtEmpty();
  } else {
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(payload.expiry_at) || Number.isNaN(Date.parse(payload.expiry_at))) {
      return CardErrors.expiryAtInvalid('must be an ISO 8601 timestamp with an offset');
    }
    expiryAt = new Date(payload.expiry_at);
    if (expiryAt.getTime() <= now.getTime()) return CardErrors.expiryAtInvalid('must be in the future');
    if (expiryAt.getTime() > now.getTime() + product.oneTimeMaxDays * DAY_MS) {
      return CardErrors.expiryAtInvalid(`must be within ${product.oneTimeMaxDays} days`);
    }
  }
  return { formFactor, cardLimitMinor, autoCancelTrigger: payload.auto_cancel_trigger as AutoCancelTrigger, expiryAt };
}

/** The first risk control set to true that the product does not permit (enable_3ds included). */
export function riskControlRefusal(product: Product, controls: RiskControlsInput | undefined): string | undefined {
  if (!controls) return undefined;
  return Object.entries(controls).find(([name, value]) => value === true && !product.allowedRiskControls.includes(name))?.[0];
}

/** The card's per-transaction control amount, in minor units (0 when none). */
export function perTransactionLimitMinor(controls: SpendingControlInput[]): bigint {
  const control = controls.find((item) => item.interval === 'PER_TRANSACTION' && item.amount !== undefined);
  return control?.amount === undefined ? 0n : parseMajorNumber(control.amount);
}

export interface UpdateDecision {
  cardLimitMinor?: bigint;
  noPinAmountMinor?: bigint;
}

/** Spec 7.4's update rules, in the order a merchant would want to hear them. */
export function decideUpdate(card: Card, product: Product, changes: UpdateCardBody, consumedMinor: bigint): UpdateDecision | ApiError {
  if (card.usageType === 'ONE_TIME') return CardErrors.oneTimeCard();
  if (riskControlRefusal(product, changes.risk_controls)) return CardErrors.riskControlSettingNotAllowed();
  if (changes.card_art_id !== undefined && !product.supportsCardArt) return CardErrors.cardArtNotSupported();
  const decision: UpdateDecision = {};
  const controls = changes.spending_controls ?? card.spendingControls;
  if (changes.card_limit !== undefined) {
    if (card.modeType === 'SINGLE') return CardErrors.singleCardLimit();
    const limit = parseMajorNumber(changes.card_limit, 2, { allowZero: true });
    if (limit <= 0n) return CardErrors.limitNotPositive();
    if (limit < consumedMinor) return CardErrors.limitBelowUsed();
    if (limit > product.cardLimitMaxMinor) return CardErrors.limitOutOfRange(`must be at most ${formatMinor(product.cardLimitMaxMinor)}`);
    if (limit < perTransactionLimitMinor(controls)) return CardErrors.limitBelowPerTransaction();
    decision.cardLimitMinor = limit;
  } else if (changes.spending_controls !== undefined && card.cardLimitMinor > 0n && card.cardLimitMinor < perTransactionLimitMinor(controls)) {
    return CardErrors.limitBelowPerTransaction();
  }
  if (changes.no_pin_payment_amount !== undefined) {
    const noPin = decideNoPinAmount(product, card.currency, changes.no_pin_payment_amount);
    if (noPin instanceof ApiError) return noPin;
    decision.noPinAmountMinor = noPin;
  }
  return decision;
}

/** A no-PIN payment amount: ≥ 0, at most 2 decimals, within the product's ceiling for the currency. */
export function decideNoPinAmount(product: Product, currency: CardCurrency, value: number): bigint | ApiError {
  if (value < 0) return CardErrors.negativeNoPinAmount();
  let minor: bigint;
  try {
    minor = parseMajorNumber(value, 2, { allowZero: true });
  } catch (error) {
    if (error instanceof MoneyFormatError) return CardErrors.noPinPrecision();
    throw error;
  }
  const ceiling = product.noPinCeilingsMinor[currency];
  if (ceiling === undefined) return CardErrors.noPinNotConfigured();
  return minor > ceiling ? CardErrors.noPinAboveCeiling() : minor;
}

/** Spec 8: at most 100 characters, a CJK character counting twice ("50 Chinese characters"). */
export function updateReasonTooLong(reason: string): boolean {
  let weight = 0;
  for (const character of reason) weight += /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]/u.test(character) ? 2 : 1;
  return weight > UPDATE_REASON_MAX;
}

/** The sandbox trigger (decisions §6): an amount whose cents are 13 makes its card order FAILED. */
export function sandboxFails(amountMinor: bigint): boolean {
  return amountMinor % 100n === SANDBOX_FAILING_CENTS;
}

function formatMinor(minor: bigint): string {
  return `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;
}
