import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Commands, results and events of the acquiring service (payment intents, attempts, customers and
 * saved cards, refunds, settlements). Wire shapes follow spec 2.1–2.4 and wire-compat §9; what the
 * spec leaves open is decided in docs/acquiring.md.
 *
 * Card data never crosses the bus in clear (architecture rule 7): the gateway seals the card number
 * and CVC with AES-256-GCM under CARD_TRANSPORT_KEY, a key only the gateway and acquiring hold
 * (`sealCardSecrets` / `openCardSecrets` below), and every result carries masked cards only.
 */
export const AcquiringCommands = {
  createIntent: 'acquiring.payment_intents.create',
  retrieveIntent: 'acquiring.payment_intents.retrieve',
  listIntents: 'acquiring.payment_intents.list',
  updateIntent: 'acquiring.payment_intents.update',
  confirmIntent: 'acquiring.payment_intents.confirm',
  captureIntent: 'acquiring.payment_intents.capture',
  cancelIntent: 'acquiring.payment_intents.cancel',
  listAttempts: 'acquiring.payment_attempts.list',
  retrieveAttempt: 'acquiring.payment_attempts.retrieve',
  createRefund: 'acquiring.refunds.create',
  listRefunds: 'acquiring.refunds.list',
  retrieveRefund: 'acquiring.refunds.retrieve',
  listSettlements: 'acquiring.settlements.list',
  /** Hosted pages (no merchant actor: the intent's client_secret authenticates). */
  hostedSession: 'acquiring.hosted.session',
  hostedConfirm: 'acquiring.hosted.confirm',
  hostedThreeDs: 'acquiring.hosted.three_ds',
} as const;
export type AcquiringCommandType = (typeof AcquiringCommands)[keyof typeof AcquiringCommands];

/** Every event the acquiring service publishes on paygrid.acquiring.events (category ACQUIRING). */
export const AcquiringEvents = {
  intentCreated: 'acquiring.payment_intent.created',
  intentUpdated: 'acquiring.payment_intent.updated',
  intentPending: 'acquiring.payment_intent.pending',
  intentRequiresAction: 'acquiring.payment_intent.requires_action',
  intentRequiresCapture: 'acquiring.payment_intent.requires_capture',
  intentPaymentFailed: 'acquiring.payment_intent.payment_failed',
  intentSucceeded: 'acquiring.payment_intent.succeeded',
  intentCancelled: 'acquiring.payment_intent.cancelled',
  intentFailed: 'acquiring.payment_intent.failed',
  attemptCreated: 'acquiring.payment_attempt.created',
  attemptAuthorized: 'acquiring.payment_attempt.authorized',
  attemptCaptureRequested: 'acquiring.payment_attempt.capture_requested',
  attemptCancelled: 'acquiring.payment_attempt.cancelled',
  attemptFailed: 'acquiring.payment_attempt.failed',
  refundCreated: 'acquiring.refund.created',
  refundSucceeded: 'acquiring.refund.succeeded',
  refundFailed: 'acquiring.refund.failed',
  settlementSucceeded: 'acquiring.settlement.succeeded',
} as const;
export type AcquiringEventName = (typeof AcquiringEvents)[keyof typeof AcquiringEvents];

// ---------------------------------------------------------------------------------------------------
// Statuses (spec 3, decisions §7, wire-compat §9.6–9.8)
// ---------------------------------------------------------------------------------------------------

export const INTENT_STATUSES = [
  'REQUIRES_PAYMENT_METHOD',
  'REQUIRES_CUSTOMER_ACTION',
  'REQUIRES_CAPTURE',
  'PENDING',
  'SUCCEEDED',
  'CANCELLED',
  'FAILED',
] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];

export const ATTEMPT_STATUSES = [
  'INITIATED',
  'AUTHENTICATION_REDIRECTED',
  'PENDING_AUTHORIZATION',
  'AUTHORIZED',
  'CAPTURE_REQUESTED',
  'SETTLED',
  'CANCELLED',
  'EXPIRED',
  'FAILED',
] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

export const REFUND_STATUSES = ['INITIATED', 'PROCESSING', 'SUCCEEDED', 'FAILED'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export const CANCELLATION_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

/** `enforce_3ds` is the spec's; `skip_3ds` is ours (the spec does not show the others). */
export const THREE_DS_ACTIONS = ['enforce_3ds', 'skip_3ds'] as const;
export type ThreeDsAction = (typeof THREE_DS_ACTIONS)[number];

// ---------------------------------------------------------------------------------------------------
// Wire resources (results of the commands, `data` of the events)
// ---------------------------------------------------------------------------------------------------

export interface Address {
  country_code?: string;
  city?: string;
  street?: string;
  postcode?: string;
  state?: string;
}

export interface Billing {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone_number?: string;
  address?: Address;
}

/** Spec 2.2: the customer snapshot; its id is only the intent's top-level customer_id. */
export interface CustomerSnapshot {
  external_customer_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  address: Address;
  metadata: Record<string, string>;
  create_time: string;
  update_time: string;
}

export interface NextAction {
  redirect_to_url?: { url: string; return_url: string };
}

export interface ThreeDsData {
  ds_transaction_id: string;
  three_ds_version: string;
  eci: string;
  cavv: string;
  three_ds_authentication_status: string;
  three_ds_cancellation_reason: string;
}

export interface AuthenticationData {
  avs_result: string;
  cvv_result: string;
  three_ds: ThreeDsData | null;
}

export interface MaskedCard {
  card_name: string;
  /** first 6 + ****** + last 4 */
  card_number: string;
  brand: string;
  bin: string;
  last4: string;
  expiry_month: string;
  expiry_year: string;
  billing: Billing;
  auto_capture: boolean;
}

export interface PaymentAttemptView {
  attempt_id: string;
  payment_intent_id: string;
  amount: string;
  currency: string;
  captured_amount: string;
  refunded_amount: string;
  attempt_status: AttemptStatus;
  create_time: string;
  update_time: string;
  complete_time: string;
  cancellation_reason: string;
  auth_code: string;
  arn: string;
  rrn: string;
  advice_code: string;
  /** `{}` until the processor has answered (an attempt just INITIATED). */
  authentication_data: AuthenticationData | Record<string, never>;
  payment_method: { type: 'card'; card: MaskedCard };
  failure_code: string;
  failure_message: string;
}

export interface PaymentOrderProduct {
  name: string;
  price: string;
  quantity: number;
  image_url?: string;
}
export interface PaymentOrders {
  type?: string;
  products?: PaymentOrderProduct[];
}

export interface PaymentIntentView {
  payment_intent_id: string;
  amount: string;
  currency: string;
  intent_status: IntentStatus;
  description: string;
  available_payment_method_types: string[];
  captured_amount: string;
  customer?: CustomerSnapshot;
  customer_id: string;
  cancel_time?: string;
  cancellation_reason: string;
  client_secret?: string;
  merchant_order_id: string;
  metadata: Record<string, string>;
  next_action: NextAction | null;
  return_url: string;
  payment_orders?: PaymentOrders;
  create_time: string;
  complete_time: string;
  update_time: string;
  latest_payment_attempt: PaymentAttemptView | null;
}

/** Refund (wire-compat §9.8) plus what a ledger needs: the account and minor-unit amounts. */
export interface RefundView {
  payment_refund_id: string;
  payment_intent_id: string;
  payment_attempt_id: string;
  account_id: string;
  amount: string;
  amount_minor: string;
  fee_amount_minor: string;
  currency: string;
  refund_status: RefundStatus;
  reason: string;
  metadata: Record<string, string>;
  failure_code: string;
  create_time: string;
  update_time: string;
  complete_time: string;
}

/** One settled (cleared) capture; items of GET /v2/payment/settlements (an open object for the SDK). */
export interface SettlementView {
  settlement_id: string;
  settlement_batch_id: string;
  payment_intent_id: string;
  payment_attempt_id: string;
  merchant_order_id: string;
  account_id: string;
  currency: string;
  amount: string;
  fee_amount: string;
  net_amount: string;
  amount_minor: string;
  fee_amount_minor: string;
  net_amount_minor: string;
  settlement_status: 'SUCCEEDED';
  settled_time: string;
  create_time: string;
}

export interface Page<T> {
  total_pages: number;
  total_items: number;
  data: T[];
}

export interface SavedCardView {
  saved_card_id: string;
  card_number: string;
  brand: string;
  last4: string;
  expiry_month: string;
  expiry_year: string;
  card_name: string;
}

/** What the hosted checkout page shows: never the merchant's internals, only what the shopper needs. */
export interface HostedSessionView {
  payment_intent_id: string;
  amount: string;
  currency: string;
  description: string;
  intent_status: IntentStatus;
  return_url: string;
  next_action: NextAction | null;
  saved_cards: SavedCardView[];
  latest_attempt_status: AttemptStatus | null;
  failure_code: string;
}

// ---------------------------------------------------------------------------------------------------
// Command payloads (the gateway has validated the HTTP shapes; the service re-checks what it relies on)
// ---------------------------------------------------------------------------------------------------

export interface CustomerInput {
  external_customer_id?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  phone_number?: string;
  address?: Address;
  metadata?: Record<string, string>;
}

export interface ThreeDsInput {
  return_url?: string;
  acs_response?: string;
  device_data_collection_res?: string;
  ds_transaction_id?: string;
}

/** The card of a command: everything but the number and CVC, which travel sealed. */
export interface CardCommandInput {
  card_name?: string;
  expiry_month: string;
  expiry_year: string;
  billing?: Billing;
  auto_capture?: boolean;
  three_ds?: ThreeDsInput;
  three_ds_action?: ThreeDsAction;
  /** sealCardSecrets({card_number, cvc}) */
  sealed: string;
}

export interface PaymentMethodCommandInput {
  card: CardCommandInput;
}

/** 3-D Secure 2 browser data (the spec does not show its fields; these are EMV 3DS's). */
export interface BrowserInfo {
  accept_header?: string;
  user_agent?: string;
  language?: string;
  color_depth?: number;
  screen_height?: number;
  screen_width?: number;
  time_zone?: number;
  java_enabled?: boolean;
  javascript_enabled?: boolean;
  ip_address?: string;
  /** Only for mobile clients (spec 2025-12-04). */
  mobile?: { device_model?: string; os_type?: string; os_version?: string };
}

export interface CreateIntentPayload {
  amount: string;
  currency: string;
  merchant_order_id: string;
  description: string;
  return_url: string;
  payment_method?: PaymentMethodCommandInput;
  ip_address?: string;
  customer?: CustomerInput;
  customer_id?: string;
  payment_orders?: PaymentOrders;
  browser_info?: BrowserInfo;
  metadata?: Record<string, string>;
}

export interface IntentIdPayload {
  payment_intent_id: string;
}

export interface UpdateIntentPayload extends IntentIdPayload {
  amount?: string;
  currency?: string;
  customer?: CustomerInput;
  customer_id?: string;
  payment_orders?: PaymentOrders;
  merchant_order_id?: string;
  description?: string;
  metadata?: Record<string, string>;
  return_url?: string;
}

export interface ConfirmIntentPayload extends IntentIdPayload {
  payment_method?: PaymentMethodCommandInput;
  ip_address?: string;
  browser_info?: BrowserInfo;
  return_url?: string;
}

export interface CaptureIntentPayload extends IntentIdPayload {
  amount_to_capture?: string;
}

export interface CancelIntentPayload extends IntentIdPayload {
  cancellation_reason?: CancellationReason;
}

export interface PageQuery {
  page_size: number;
  page_number: number;
}

export interface ListIntentsPayload extends PageQuery {
  intent_status?: IntentStatus;
  create_start_time?: string;
  create_end_time?: string;
}

export interface ListAttemptsPayload extends PageQuery {
  payment_intent_id?: string;
  attempt_status?: AttemptStatus;
}

export interface AttemptIdPayload {
  attempt_id: string;
}

export interface CreateRefundPayload {
  payment_intent_id: string;
  amount: string;
  reason?: string;
  payment_attempt_id?: string;
  metadata?: Record<string, string>;
}

export interface ListRefundsPayload extends PageQuery {
  start_time?: string;
  end_time?: string;
  payment_intent_id?: string;
  merchant_order_id?: string;
}

export interface RefundIdPayload {
  refund_id: string;
}

export interface ListSettlementsPayload extends PageQuery {
  payment_intent_id?: string;
  settlement_batch_id?: string;
  settled_start_time?: string;
  settled_end_time?: string;
}

export interface HostedSessionPayload {
  client_secret: string;
}

export interface HostedConfirmPayload extends HostedSessionPayload {
  /** Exactly one of the two: a new card (sealed like any other) or a saved card of the intent's customer. */
  payment_method?: PaymentMethodCommandInput;
  saved_card_id?: string;
}

export interface HostedThreeDsPayload extends HostedSessionPayload {
  outcome: 'approve' | 'fail';
}

// ---------------------------------------------------------------------------------------------------
// Rules shared by the gateway (HTTP validation) and the service (re-check of the command)
// ---------------------------------------------------------------------------------------------------

/** Spec 8: metadata is at most 512 bytes, measured as the JSON the client sent (UTF-8). */
export const METADATA_MAX_BYTES = 512;
export const COUNTRIES_REQUIRING_STATE = ['US', 'CA'] as const;

export function metadataBytes(metadata: unknown): number {
  return Buffer.byteLength(JSON.stringify(metadata ?? {}), 'utf8');
}

interface CrossFieldInput {
  payment_method?: { card?: { billing?: Billing; three_ds_action?: string } };
  ip_address?: string;
  browser_info?: unknown;
  metadata?: unknown;
}

/**
 * The cross-field rules of spec 4.1 that a per-field validator cannot express, as sentences naming
 * the field path: state for US/CA billing, ip_address and browser_info under enforce_3ds, metadata size.
 */
export function crossFieldProblems(body: CrossFieldInput): string[] {
  const problems: string[] = [];
  const card = body.payment_method?.card;
  const country = card?.billing?.address?.country_code;
  if (country && (COUNTRIES_REQUIRING_STATE as readonly string[]).includes(country) && !card?.billing?.address?.state) {
    problems.push(`payment_method.card.billing.address.state: is required when country_code is ${country}`);
  }
  if (card?.three_ds_action === 'enforce_3ds') {
    if (!body.ip_address) problems.push('ip_address: is required when payment_method.card.three_ds_action is enforce_3ds');
    if (body.browser_info === undefined || body.browser_info === null) {
      problems.push('browser_info: is required when payment_method.card.three_ds_action is enforce_3ds');
    }
  }
  if (body.metadata !== undefined && metadataBytes(body.metadata) > METADATA_MAX_BYTES) {
    problems.push(`metadata: must be at most ${METADATA_MAX_BYTES} bytes as JSON`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------
// Card number rules (decisions §6: a wrong length or a failed Luhn check is a 400 before processing).
// Shared so the gateway refuses a bad number before it is sealed and acquiring re-checks after opening.
// ---------------------------------------------------------------------------------------------------

export type CardBrand = 'VISA' | 'MASTERCARD' | 'AMEX' | 'DISCOVER' | 'JCB' | 'UNIONPAY' | 'DINERS' | 'UNKNOWN';

interface BrandRule {
  brand: CardBrand;
  prefix: RegExp;
  lengths: readonly number[];
  cvcLength: number;
}

const BRAND_RULES: readonly BrandRule[] = [
  { brand: 'AMEX', prefix: /^3[47]/, lengths: [15], cvcLength: 4 },
  { brand: 'DINERS', prefix: /^3(0[0-5]|[68])/, lengths: [14, 16], cvcLength: 3 },
  { brand: 'JCB', prefix: /^35(2[89]|[3-8])/, lengths: [16, 17, 18, 19], cvcLength: 3 },
  { brand: 'VISA', prefix: /^4/, lengths: [13, 16, 19], cvcLength: 3 },
  { brand: 'MASTERCARD', prefix: /^(5[1-5]|2(2[2-9]|[3-6]|7[01]|720))/, lengths: [16], cvcLength: 3 },
  { brand: 'DISCOVER', prefix: /^(6011|65|64[4-9])/, lengths: [16, 19], cvcLength: 3 },
  { brand: 'UNIONPAY', prefix: /^62/, lengths: [16, 17, 18, 19], cvcLength: 3 },
];
const UNKNOWN_BRAND: BrandRule = { brand: 'UNKNOWN', prefix: /^/, lengths: [13, 14, 15, 16, 17, 18, 19], cvcLength: 3 };

export type CardNumberProblem = 'not_digits' | 'invalid_length' | 'failed_luhn';

export const CARD_NUMBER_PROBLEMS: Record<CardNumberProblem, string> = {
  not_digits: 'must contain only digits',
  invalid_length: 'has the wrong length for its card brand',
  failed_luhn: 'is not a valid card number (check digit)',
};

/** Spaces and dashes are what shoppers type between groups; anything else is not a card number. */
export function normaliseCardNumber(input: string): string {
  return input.replace(/[ -]/g, '');
}

function brandRuleOf(digits: string): BrandRule {
  return BRAND_RULES.find((rule) => rule.prefix.test(digits)) ?? UNKNOWN_BRAND;
}

export function cardBrandOf(digits: string): CardBrand {
  return brandRuleOf(digits).brand;
}

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardNumberProblem(digits: string): CardNumberProblem | undefined {
  if (!/^\d+$/.test(digits)) return 'not_digits';
  if (!brandRuleOf(digits).lengths.includes(digits.length)) return 'invalid_length';
  if (!passesLuhn(digits)) return 'failed_luhn';
  return undefined;
}

export function cvcProblem(digits: string, cvc: string): string | undefined {
  const expected = brandRuleOf(digits).cvcLength;
  return new RegExp(`^\\d{${expected}}$`).test(cvc) ? undefined : `must be ${expected} digits for this card`;
}

/** The only way a card number is ever shown: first 6 + ****** + last 4. */
export function maskCardNumber(digits: string): string {
  return `${digits.slice(0, 6)}******${digits.slice(-4)}`;
}

// ---------------------------------------------------------------------------------------------------
// Card transport sealing (gateway → acquiring)
// ---------------------------------------------------------------------------------------------------

export interface CardSecrets {
  card_number: string;
  cvc: string;
}

/** Development default of CARD_TRANSPORT_KEY (gateway and acquiring); refused in production. */
export const DEVELOPMENT_CARD_TRANSPORT_KEY = 'cGF5Z3JpZC1kZXYtY2FyZC10cmFuc3BvcnQta2V5MDE=';

const SEAL_VERSION = 'v1';
const SEAL_AAD = Buffer.from('paygrid.card-transport.v1');

export class CardSealError extends Error {}

/** A base64 AES-256 key (32 bytes), as CARD_TRANSPORT_KEY and CARD_ENCRYPTION_KEY are configured. */
export function decodeAes256Key(raw: string): Buffer {
  if (!/^[A-Za-z0-9+/]{43}=$/.test(raw)) throw new Error('must be 32 bytes in base64 (44 characters ending in =)');
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new Error('must decode to exactly 32 bytes');
  return key;
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64url), AES-256-GCM with a fresh 96-bit IV per card. */
export function sealCardSecrets(secrets: CardSecrets, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(SEAL_AAD);
  const body = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return [SEAL_VERSION, iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** Throws CardSealError when the value was not sealed with this key or was altered. */
export function openCardSecrets(sealed: string, key: Buffer): CardSecrets {
  const parts = typeof sealed === 'string' ? sealed.split('.') : [];
  if (parts.length !== 4 || parts[0] !== SEAL_VERSION) throw new CardSealError('sealed card has an unknown format');
  try {
    const [, iv, tag, body] = parts.map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(SEAL_AAD);
    decipher.setAuthTag(tag);
    const text = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    const value = JSON.parse(text) as Partial<CardSecrets>;
    if (typeof value.card_number !== 'string' || typeof value.cvc !== 'string') {
      throw new CardSealError('sealed card lacks card_number or cvc');
    }
    return { card_number: value.card_number, cvc: value.cvc };
  } catch (error) {
    if (error instanceof CardSealError) throw error;
    throw new CardSealError('sealed card could not be opened with this key');
  }
}
