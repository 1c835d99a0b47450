import {
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import {
  CreateWebhookEndpointPayload,
  UpdateWebhookEndpointFields,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_FILTER_MAX_LENGTH,
  WEBHOOK_ROTATION_OVERLAP_MAX_SECONDS,
  WebhookDeliveryStatus,
} from '@paygrid/contracts';
import { PaginationQuery } from '../../../common/pagination.dto';

/**
 * HTTP shapes of the webhook routes (docs/webhooks.md). The endpoint fields carry the contract's rules
 * (libs/contracts/src/webhooks.ts), which the dispatcher applies again; it alone decides what needs its
 * data (whether the URL's host is public, whether the endpoint belongs to the caller).
 */
export class CreateEndpointBody extends CreateWebhookEndpointPayload {}

export class UpdateEndpointBody extends UpdateWebhookEndpointFields {}

export class RotateSecretBody {
  @IsOptional() @IsInt() @Min(0) @Max(WEBHOOK_ROTATION_OVERLAP_MAX_SECONDS) overlap_seconds?: number;
}

export class ReplayBody {
  @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 time such as 2026-03-01T12:00:00Z' })
  since!: string;
}

export class IdParam {
  @IsString() @MinLength(1) @MaxLength(64) id!: string;
}

export class ListEndpointsQuery extends PaginationQuery {}

export class ListDeliveriesQuery extends PaginationQuery {
  @IsOptional()
  @IsIn(WEBHOOK_DELIVERY_STATUSES, { message: `must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}` })
  delivery_status?: WebhookDeliveryStatus;

  @IsOptional() @IsString() @MaxLength(WEBHOOK_EVENT_FILTER_MAX_LENGTH) event_name?: string;
  @IsOptional() @IsString() @MaxLength(64) endpoint_id?: string;
  @IsOptional() @IsISO8601({ strict: true }) create_start_time?: string;
  @IsOptional() @IsISO8601({ strict: true }) create_end_time?: string;
}

export class ListAttemptsQuery extends PaginationQuery {}
