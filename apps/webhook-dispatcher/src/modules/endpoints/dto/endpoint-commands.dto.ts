import { Type } from 'class-transformer';
import { IsISO8601, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import {
  CreateWebhookEndpointPayload,
  UpdateWebhookEndpointFields,
  WEBHOOK_ROTATION_OVERLAP_MAX_SECONDS,
} from '@paygrid/contracts';
import { PageDto } from '../../../common/pagination';

/**
 * Payloads of the endpoint commands: the contract's endpoint fields (the gateway applies the same rules)
 * plus ids. Whether the URL's host resolves to a public address is the service's job (address-guard.ts).
 */
const ENDPOINT_ID = /^whep_[0-9A-Z]{26}$/;
const idMessage = { message: '$property must be a webhook endpoint id (whep_...)' };
export class CreateEndpointDto extends CreateWebhookEndpointPayload {}

export class EndpointRefDto {
  @Matches(ENDPOINT_ID, idMessage) endpoint_id!: string;
}

export class UpdateEndpointDto extends UpdateWebhookEndpointFields {
  @Matches(ENDPOINT_ID, idMessage) endpoint_id!: string;
}

export class RotateSecretDto extends EndpointRefDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(WEBHOOK_ROTATION_OVERLAP_MAX_SECONDS)
  overlap_seconds?: number;
}

export class ReplayEndpointDto extends EndpointRefDto {
  @IsISO8601({ strict: true }) since!: string;
}

export class ListEndpointsDto extends PageDto {
  @IsOptional() @IsString() @MaxLength(64) account_id?: string;
}
