/**
 * Views, events and limits of the webhook dispatcher (decisions §8, wire-compat §13, docs/webhooks.md);
 * its commands are declared in webhooks.commands.ts.
 *
 * Merchant commands come from the gateway with the acting account as `actor` and only ever see that
 * account's endpoints and deliveries; operator commands come from the CLI with `actor: null` and may see
 * every account. Statuses on the wire are upper case like the rest of the API.
 */

/** Operational events on EventTopics.webhooks (category OPERATIONS: never delivered to merchants). */
export const WebhookEvents = {
  endpointDisabled: 'webhook.endpoint.disabled',
} as const;

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 255;
export const WEBHOOK_EVENT_FILTERS_MAX = 100;
export const WEBHOOK_EVENT_FILTER_MAX_LENGTH = 128;
/** An exact dotted name (`card.create.succeeded`), a prefix wildcard (`acquiring.payment_intent.*`) or `*`. */
export const WEBHOOK_EVENT_FILTER_PATTERN = /^(\*|[a-z0-9_]+(\.[a-z0-9_]+)*(\.\*)?)$/;
/** Secrets are `whsec_` + base64 of random bytes, as the Standard Webhooks specification spells them. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** The longest overlap a rotation may ask for. */
export const WEBHOOK_ROTATION_OVERLAP_MAX_SECONDS = 7 * 24 * 3600;

export type WebhookEndpointStatus = 'ENABLED' | 'DISABLED';
export type WebhookDeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
export const WEBHOOK_DELIVERY_STATUSES: readonly WebhookDeliveryStatus[] = [
  'PENDING',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
];
export type WebhookAttemptTrigger = 'SCHEDULED' | 'MANUAL';

export interface WebhookEndpointView {
  endpoint_id: string;
  account_id: string;
  url: string;
  description: string | null;
  /** Empty: every event. */
  event_names: string[];
  include_sub_accounts: boolean;
  status: WebhookEndpointStatus;
  /** Why the dispatcher disabled it (`gone`, `failing`), or null. */
  disabled_reason: string | null;
  disabled_time: string | null;
  /** Since when every attempt has failed, or null. */
  failing_since: string | null;
  create_time: string;
  update_time: string;
}
export interface CreatedWebhookEndpointView extends WebhookEndpointView {
  /** The signing secret, shown in this reply only. */
  secret: string;
}
export interface RotatedWebhookSecretView {
  endpoint_id: string;
  secret: string;
  /** Until then the previous secret also signs every delivery. */
  previous_secret_expire_time: string;
}
export interface DeletedWebhookEndpointView {
  endpoint_id: string;
  deleted: true;
}
export interface ReplayedWebhookEndpointView {
  endpoint_id: string;
  since: string;
  replayed: number;
}

export interface WebhookDeliveryView {
  delivery_id: string;
  endpoint_id: string;
  /** The endpoint's owner (for a master's opted-in endpoint, the master). */
  account_id: string;
  event_id: string;
  event_name: string;
  event_type: string;
  /** The account the event is about. */
  event_account_id: string;
  delivery_status: WebhookDeliveryStatus;
  attempt_count: number;
  next_attempt_time: string | null;
  last_attempt_time: string | null;
  last_status_code: number | null;
  last_error: string | null;
  create_time: string;
  update_time: string;
  complete_time: string | null;
}
export interface WebhookAttemptView {
  delivery_id: string;
  endpoint_id: string;
  event_id: string;
  attempt_number: number;
  trigger: WebhookAttemptTrigger;
  attempt_time: string;
  /** Null when no HTTP response arrived (network error, timeout, refused address). */
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  /** The first 1 KiB of the response body. */
  response_excerpt: string;
  succeeded: boolean;
}
export interface WebhookDeliveryDetailView extends WebhookDeliveryView {
  url: string;
  attempts: WebhookAttemptView[];
}

export interface WebhookPage<T> {
  total_pages: number;
  total_items: number;
  data: T[];
}

/** The data of `webhook.endpoint.disabled`. */
export interface WebhookEndpointDisabledData {
  endpoint_id: string;
  account_id: string;
  url: string;
  reason: 'gone' | 'failing';
  failing_since: string | null;
  disabled_time: string;
}

/** The JSON body every delivery carries (decisions §8), serialised once per event. */
export interface WebhookBody {
  version: string;
  event_type: string;
  event_name: string;
  event_id: string;
  source_id: string;
  account_id: string;
  create_time: string;
  data: Record<string, unknown>;
}
