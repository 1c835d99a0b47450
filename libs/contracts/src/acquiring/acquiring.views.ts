/**
 * What the acquiring service answers and announces: its statuses, event names and the wire resources
 * (results of its commands, `data` of its events). Shapes follow spec 2.1–2.4 and wire-compat §9; what
 * the spec leaves open is decided in docs/acquiring.md. Every card in them is masked.
 */

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

/**
 * What `GET /v2/payment/payment_attempts?attempt_status=` accepts: every value of wire-compat §9.7. The
 * SDK's `SUCCEEDED` is not a status an attempt of ours takes: it selects the attempts that made their intent
 * SUCCEEDED (CAPTURE_REQUESTED and SETTLED, the intent-status mapping).
 */
export type AttemptStatusFilter = AttemptStatus | 'SUCCEEDED';
export const ATTEMPT_STATUS_FILTERS: readonly AttemptStatusFilter[] = [...ATTEMPT_STATUSES, 'SUCCEEDED'];
export const SUCCEEDED_ATTEMPT_STATUSES: readonly AttemptStatus[] = ['CAPTURE_REQUESTED', 'SETTLED'];

export const REFUND_STATUSES = ['INITIATED', 'PROCESSING', 'SUCCEEDED', 'FAILED'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export const CANCELLATION_REASONS = [
  'duplicate',
  'fraudulent',
  'requested_by_customer',
  'abandoned',
] as const;
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

/**
 * Refund (wire-compat §9.8 and the fields it lets a server add): the API's response and the `data` of
 * acquiring.refund.* events, so webhooks show exactly this. The account is the event envelope's
 * `account_id`; a ledger reads the amount in the currency (minor units are not a wire field).
 */
export interface RefundView {
  payment_refund_id: string;
  payment_intent_id: string;
  payment_attempt_id: string;
  amount: string;
  currency: string;
  refund_status: RefundStatus;
  reason: string;
  metadata: Record<string, string>;
  failure_code: string;
  create_time: string;
  update_time: string;
  complete_time: string;
}

/**
 * One settled (cleared) capture: items of GET /v2/payment/settlements (an open object for the SDK) and
 * the `data` of acquiring.settlement.succeeded. Decimal amounts in `currency`, like every other resource.
 */
export interface SettlementView {
  settlement_id: string;
  settlement_batch_id: string;
  payment_intent_id: string;
  payment_attempt_id: string;
  merchant_order_id: string;
  currency: string;
  amount: string;
  fee_amount: string;
  net_amount: string;
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
