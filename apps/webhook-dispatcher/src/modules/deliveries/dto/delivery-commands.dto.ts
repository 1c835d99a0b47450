import { IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { WEBHOOK_DELIVERY_STATUSES, WebhookDeliveryStatus } from '@paygrid/contracts';
import { PageDto } from '../../../common/pagination';

/** Payloads of the delivery commands (filters of the list as wire-compat §9 names them for other lists). */
const DELIVERY_ID = /^del_[0-9A-Z]{26}$/;

export class ListDeliveriesDto extends PageDto {
  @IsOptional()
  @IsIn(WEBHOOK_DELIVERY_STATUSES, {
    message: `$property must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}`,
  })
  delivery_status?: WebhookDeliveryStatus;

  @IsOptional() @IsString() @MinLength(1) @MaxLength(128) event_name?: string;
  @IsOptional()
  @Matches(/^whep_[0-9A-Z]{26}$/, { message: '$property must be a webhook endpoint id (whep_...)' })
  endpoint_id?: string;
  @IsOptional() @IsISO8601({ strict: true }) create_start_time?: string;
  @IsOptional() @IsISO8601({ strict: true }) create_end_time?: string;
  /** Operators only (ignored for merchants, who see their own account). */
  @IsOptional() @IsString() @MaxLength(64) account_id?: string;
}

export class DeliveryRefDto {
  @Matches(DELIVERY_ID, { message: '$property must be a webhook delivery id (del_...)' })
  delivery_id!: string;
}

export class EventAttemptsDto extends PageDto {
  @IsString() @MinLength(1) @MaxLength(64) event_id!: string;
}
