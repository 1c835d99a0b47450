import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { defineCommand, returns } from './command-definition';
import { PagePayload } from './validation/paging';
import {
  CreatedWebhookEndpointView,
  DeletedWebhookEndpointView,
  ReplayedWebhookEndpointView,
  RotatedWebhookSecretView,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_EVENT_FILTER_MAX_LENGTH,
  WEBHOOK_EVENT_FILTER_PATTERN,
  WEBHOOK_EVENT_FILTERS_MAX,
  WEBHOOK_ROTATION_OVERLAP_MAX_SECONDS,
  WEBHOOK_URL_MAX_LENGTH,
  WebhookAttemptView,
  WebhookDeliveryDetailView,
  WebhookDeliveryStatus,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookPage,
} from './webhooks';

/**
 * The commands of the webhook dispatcher (family `webhooks`), each declared once with the class its
 * payload must satisfy. Where the HTTP body or query IS the payload, the gateway validates it with the
 * same class; where the gateway adds the path's id (or an operator may add an account filter), the
 * payload class extends the body class. Whether a URL's host is public is the dispatcher's check.
 *
 * Merchant commands carry the gateway's actor and see only the acting account's endpoints and
 * deliveries. Those marked `needsActor: false` also serve the operators' CLI (actor null: every account).
 */
const ENDPOINT_ID_PATTERN = /^whep_[0-9A-Z]{26}$/;
const DELIVERY_ID_PATTERN = /^del_[0-9A-Z]{26}$/;
const EndpointId = () =>
  Matches(ENDPOINT_ID_PATTERN, { message: '$property must be a webhook endpoint id (whep_...)' });
const OPERATOR_ACCOUNT_ID_MAX_LENGTH = 64;

const EVENT_FILTER_MESSAGE = {
  each: true,
  message:
    'each value in $property must be an event name such as card.create.succeeded or a prefix such as acquiring.payment_intent.*',
};

/** The fields create and update share. */
class WebhookEndpointFilterFields {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(WEBHOOK_EVENT_FILTERS_MAX)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(WEBHOOK_EVENT_FILTER_MAX_LENGTH, { each: true })
  @Matches(WEBHOOK_EVENT_FILTER_PATTERN, EVENT_FILTER_MESSAGE)
  event_names?: string[];

  @IsOptional() @IsBoolean() include_sub_accounts?: boolean;
}

/** `POST /v1/webhooks/endpoints`. */
export class CreateWebhookEndpointPayload extends WebhookEndpointFilterFields {
  @IsString() @MinLength(1) @MaxLength(WEBHOOK_URL_MAX_LENGTH) url!: string;
  @IsOptional() @IsString() @MaxLength(WEBHOOK_DESCRIPTION_MAX_LENGTH) description?: string;
}

/** `POST /v1/webhooks/endpoints/{id}`: only the fields given change; `description: null` clears it. */
export class UpdateWebhookEndpointBody extends WebhookEndpointFilterFields {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(WEBHOOK_URL_MAX_LENGTH) url?: string;
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsString()
  @MaxLength(WEBHOOK_DESCRIPTION_MAX_LENGTH)
  description?: string | null;
}

export class UpdateWebhookEndpointPayload extends UpdateWebhookEndpointBody {
  @EndpointId() endpoint_id!: string;
}

export class WebhookEndpointRef {
  @EndpointId() endpoint_id!: string;
}

/** `POST /v1/webhooks/endpoints/{id}/rotate_secret`. */
export class RotateWebhookSecretBody {
  /** How long the previous secret keeps signing (default from the dispatcher's configuration). */
  @IsOptional() @IsInt() @Min(0) @Max(WEBHOOK_ROTATION_OVERLAP_MAX_SECONDS) overlap_seconds?: number;
}

export class RotateWebhookSecretPayload extends RotateWebhookSecretBody {
  @EndpointId() endpoint_id!: string;
}

/** `POST /v1/webhooks/endpoints/{id}/replay`. */
export class ReplayWebhookEndpointBody {
  /** Failed deliveries created at or after this time are sent again. */
  @IsISO8601({ strict: true }, { message: '$property must be an ISO 8601 time such as 2026-03-01T12:00:00Z' })
  since!: string;
}

export class ReplayWebhookEndpointPayload extends ReplayWebhookEndpointBody {
  @EndpointId() endpoint_id!: string;
}

/** `GET /v1/webhooks/endpoints` is the page alone; operators may ask for one account's. */
export class ListWebhookEndpointsPayload extends PagePayload {
  @IsOptional() @IsString() @MaxLength(OPERATOR_ACCOUNT_ID_MAX_LENGTH) account_id?: string;
}

/** `GET /v1/webhooks/deliveries`: newest first, filtered. */
export class ListWebhookDeliveriesQuery extends PagePayload {
  @IsOptional()
  @IsIn(WEBHOOK_DELIVERY_STATUSES, {
    message: `$property must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}`,
  })
  delivery_status?: WebhookDeliveryStatus;

  @IsOptional() @IsString() @MinLength(1) @MaxLength(WEBHOOK_EVENT_FILTER_MAX_LENGTH) event_name?: string;
  @IsOptional() @EndpointId() endpoint_id?: string;
  @IsOptional() @IsISO8601({ strict: true }) create_start_time?: string;
  @IsOptional() @IsISO8601({ strict: true }) create_end_time?: string;
}

export class ListWebhookDeliveriesPayload extends ListWebhookDeliveriesQuery {
  /** Operators only (merchants see their own account whatever they send). */
  @IsOptional() @IsString() @MaxLength(OPERATOR_ACCOUNT_ID_MAX_LENGTH) account_id?: string;
}

export class WebhookDeliveryRef {
  @Matches(DELIVERY_ID_PATTERN, { message: '$property must be a webhook delivery id (del_...)' })
  delivery_id!: string;
}

/** `GET /v1/webhooks/events/{id}/attempts`: the page, and the event from the path. */
export class ListWebhookEventAttemptsPayload extends PagePayload {
  @IsString() @MinLength(1) @MaxLength(64) event_id!: string;
}

export const WebhookCommand = {
  createEndpoint: defineCommand('webhooks.endpoints.create', {
    payload: CreateWebhookEndpointPayload,
    result: returns<CreatedWebhookEndpointView>(),
    mutates: true,
  }),
  listEndpoints: defineCommand('webhooks.endpoints.list', {
    payload: ListWebhookEndpointsPayload,
    result: returns<WebhookPage<WebhookEndpointView>>(),
    mutates: false,
    needsActor: false,
  }),
  retrieveEndpoint: defineCommand('webhooks.endpoints.retrieve', {
    payload: WebhookEndpointRef,
    result: returns<WebhookEndpointView>(),
    mutates: false,
    needsActor: false,
  }),
  updateEndpoint: defineCommand('webhooks.endpoints.update', {
    payload: UpdateWebhookEndpointPayload,
    result: returns<WebhookEndpointView>(),
    mutates: true,
  }),
  deleteEndpoint: defineCommand('webhooks.endpoints.delete', {
    payload: WebhookEndpointRef,
    result: returns<DeletedWebhookEndpointView>(),
    mutates: true,
  }),
  rotateSecret: defineCommand('webhooks.endpoints.rotate_secret', {
    payload: RotateWebhookSecretPayload,
    result: returns<RotatedWebhookSecretView>(),
    mutates: true,
  }),
  /** Re-enable an endpoint the dispatcher disabled (410, or failing for days). */
  enableEndpoint: defineCommand('webhooks.endpoints.enable', {
    payload: WebhookEndpointRef,
    result: returns<WebhookEndpointView>(),
    mutates: true,
    needsActor: false,
  }),
  /** Send every failed delivery of an endpoint since a time once more. */
  replayEndpoint: defineCommand('webhooks.endpoints.replay', {
    payload: ReplayWebhookEndpointPayload,
    result: returns<ReplayedWebhookEndpointView>(),
    mutates: true,
    needsActor: false,
  }),
  listDeliveries: defineCommand('webhooks.deliveries.list', {
    payload: ListWebhookDeliveriesPayload,
    result: returns<WebhookPage<WebhookDeliveryView>>(),
    mutates: false,
    needsActor: false,
  }),
  /** One delivery with all its attempts. */
  retrieveDelivery: defineCommand('webhooks.deliveries.retrieve', {
    payload: WebhookDeliveryRef,
    result: returns<WebhookDeliveryDetailView>(),
    mutates: false,
    needsActor: false,
  }),
  retryDelivery: defineCommand('webhooks.deliveries.retry', {
    payload: WebhookDeliveryRef,
    result: returns<WebhookDeliveryView>(),
    mutates: true,
    needsActor: false,
  }),
  /** Every attempt made for one event, across the acting account's endpoints. */
  listEventAttempts: defineCommand('webhooks.events.list_attempts', {
    payload: ListWebhookEventAttemptsPayload,
    result: returns<WebhookPage<WebhookAttemptView>>(),
    mutates: false,
    needsActor: false,
  }),
};
