import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsIP,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import {
  ATTEMPT_STATUSES,
  AttemptStatus,
  CANCELLATION_REASONS,
  CancellationReason,
  INTENT_STATUSES,
  IntentStatus,
  THREE_DS_ACTIONS,
  ThreeDsAction,
} from '@paygrid/contracts';
import { PaginationQuery } from '../../../common/pagination.dto';

/**
 * HTTP shapes of the acquiring routes (spec 4.1, 4.2, 8; wire-compat §9.1–9.9). Every field the spec
 * bounds is bounded here; cross-field rules (state for US/CA, enforce_3ds needs ip_address and
 * browser_info, metadata ≤ 512 bytes) and money per currency are checked by the controller after these.
 */
const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;
const CURRENCY = /^[A-Z]{3,4}$/;
/** A web URL or an application URI: a scheme, then anything. */
const URI = /^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/;
const TEXT = 255;

/** A flat string → string map (metadata): what the SDKs type it as. */
function IsStringMap(options?: ValidationOptions) {
  return ValidateBy(
    {
      name: 'isStringMap',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string'),
        defaultMessage: () => 'must be an object of string values',
      },
    },
    options,
  );
}

export class PaymentAddressDto {
  @IsOptional() @Matches(/^[A-Z]{2}$/, { message: 'must be an ISO 3166-1 alpha-2 country code' }) country_code?: string;
  @IsOptional() @IsString() @MaxLength(100) city?: string;
  @IsOptional() @IsString() @MaxLength(TEXT) street?: string;
  @IsOptional() @IsString() @MaxLength(20) postcode?: string;
  @IsOptional() @IsString() @MaxLength(100) state?: string;
}

export class BillingDto {
  @IsOptional() @IsString() @MaxLength(100) first_name?: string;
  @IsOptional() @IsString() @MaxLength(100) last_name?: string;
  @IsOptional() @IsEmail({}, { message: 'must be an email address' }) @MaxLength(254) email?: string;
  @IsOptional() @IsString() @MaxLength(32) phone_number?: string;
  @IsOptional() @ValidateNested() @Type(() => PaymentAddressDto) address?: PaymentAddressDto;
}

export class ThreeDsDto {
  @IsOptional() @IsString() @MaxLength(1024) return_url?: string;
  @IsOptional() @IsString() @MaxLength(8192) acs_response?: string;
  @IsOptional() @IsString() @MaxLength(8192) device_data_collection_res?: string;
  @IsOptional() @IsString() @MaxLength(64) ds_transaction_id?: string;
}

export class CardDto {
  @IsOptional() @IsString() @MaxLength(100) card_name?: string;
  @IsString() @Matches(/^[0-9][0-9 -]{10,24}[0-9]$/, { message: 'must be 12 to 19 digits' }) card_number!: string;
  @IsString() @Matches(/^(0[1-9]|1[0-2])$/, { message: 'must be MM (01-12)' }) expiry_month!: string;
  @IsString() @Matches(/^(\d{2}|\d{4})$/, { message: 'must be YYYY' }) expiry_year!: string;
  @IsString() @Matches(/^\d{3,4}$/, { message: 'must be 3 or 4 digits' }) cvc!: string;
  @IsOptional() @ValidateNested() @Type(() => BillingDto) billing?: BillingDto;
  @IsOptional() @IsBoolean() auto_capture?: boolean;
  @IsOptional() @ValidateNested() @Type(() => ThreeDsDto) three_ds?: ThreeDsDto;
  @IsOptional() @IsIn(THREE_DS_ACTIONS, { message: `must be one of ${THREE_DS_ACTIONS.join(', ')}` })
  three_ds_action?: ThreeDsAction;
}

export class PaymentMethodDto {
  @IsDefined() @ValidateNested() @Type(() => CardDto) card!: CardDto;
}

export class CustomerDto {
  @IsOptional() @IsString() @MaxLength(64) external_customer_id?: string;
  @IsOptional() @IsString() @MaxLength(100) first_name?: string;
  @IsOptional() @IsString() @MaxLength(100) last_name?: string;
  @IsOptional() @IsEmail({}, { message: 'must be an email address' }) @MaxLength(254) email?: string;
  @IsOptional() @IsString() @MaxLength(32) phone_number?: string;
  @IsOptional() @ValidateNested() @Type(() => PaymentAddressDto) address?: PaymentAddressDto;
  @IsOptional() @IsStringMap() metadata?: Record<string, string>;
}

export class ProductDto {
  @IsString() @IsNotEmpty() @MaxLength(TEXT) name!: string;
  @IsString() @Matches(DECIMAL, { message: 'must be a decimal string' }) price!: string;
  @IsInt() @Min(1) @Max(1_000_000) quantity!: number;
  @IsOptional() @IsString() @MaxLength(1024) image_url?: string;
}

export class PaymentOrdersDto {
  @IsOptional() @IsString() @MaxLength(50) type?: string;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => ProductDto) products?: ProductDto[];
}

/** 3-D Secure 2 browser data (EMV 3DS field names); `mobile` only for mobile clients (spec 2025-12-04). */
export class MobileInfoDto {
  @IsOptional() @IsString() @MaxLength(100) device_model?: string;
  @IsOptional() @IsString() @MaxLength(50) os_type?: string;
  @IsOptional() @IsString() @MaxLength(50) os_version?: string;
}

export class BrowserInfoDto {
  @IsOptional() @IsString() @MaxLength(2048) accept_header?: string;
  @IsOptional() @IsString() @MaxLength(2048) user_agent?: string;
  @IsOptional() @IsString() @MaxLength(35) language?: string;
  @IsOptional() @IsInt() @Min(1) @Max(48) color_depth?: number;
  @IsOptional() @IsInt() @Min(0) @Max(100_000) screen_height?: number;
  @IsOptional() @IsInt() @Min(0) @Max(100_000) screen_width?: number;
  @IsOptional() @IsInt() @Min(-900) @Max(900) time_zone?: number;
  @IsOptional() @IsBoolean() java_enabled?: boolean;
  @IsOptional() @IsBoolean() javascript_enabled?: boolean;
  @IsOptional() @IsString() @MaxLength(45) ip_address?: string;
  @IsOptional() @ValidateNested() @Type(() => MobileInfoDto) mobile?: MobileInfoDto;
}

export class CreatePaymentIntentBody {
  @IsString() @Matches(DECIMAL, { message: 'must be a decimal string such as "10.50"' }) amount!: string;
  @IsString() @Matches(CURRENCY, { message: 'must be a three-letter currency code' }) currency!: string;
  @IsString() @IsNotEmpty() @MaxLength(36) merchant_order_id!: string;
  @IsString() @IsNotEmpty() @MaxLength(32) description!: string;
  @IsString() @MaxLength(1024) @Matches(URI, { message: 'must be a web URL or an application URI' }) return_url!: string;
  @IsOptional() @ValidateNested() @Type(() => PaymentMethodDto) payment_method?: PaymentMethodDto;
  @IsOptional() @IsIP(undefined, { message: 'must be an IPv4 or IPv6 address' }) @MaxLength(45) ip_address?: string;
  @IsOptional() @ValidateNested() @Type(() => CustomerDto) customer?: CustomerDto;
  @IsOptional() @IsString() @MaxLength(36) customer_id?: string;
  @IsOptional() @ValidateNested() @Type(() => PaymentOrdersDto) payment_orders?: PaymentOrdersDto;
  @IsOptional() @ValidateNested() @Type(() => BrowserInfoDto) browser_info?: BrowserInfoDto;
  @IsOptional() @IsStringMap() metadata?: Record<string, string>;
}

export class UpdatePaymentIntentBody {
  @IsOptional() @IsString() @Matches(DECIMAL, { message: 'must be a decimal string such as "10.50"' }) amount?: string;
  @IsOptional() @IsString() @Matches(CURRENCY, { message: 'must be a three-letter currency code' }) currency?: string;
  @IsOptional() @ValidateNested() @Type(() => CustomerDto) customer?: CustomerDto;
  @IsOptional() @IsString() @MaxLength(36) customer_id?: string;
  @IsOptional() @ValidateNested() @Type(() => PaymentOrdersDto) payment_orders?: PaymentOrdersDto;
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(36) merchant_order_id?: string;
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(32) description?: string;
  @IsOptional() @IsStringMap() metadata?: Record<string, string>;
  @IsOptional() @IsString() @MaxLength(1024) @Matches(URI, { message: 'must be a web URL or an application URI' }) return_url?: string;
}

export class ConfirmPaymentIntentBody {
  @IsOptional() @ValidateNested() @Type(() => PaymentMethodDto) payment_method?: PaymentMethodDto;
  @IsOptional() @IsIP(undefined, { message: 'must be an IPv4 or IPv6 address' }) @MaxLength(45) ip_address?: string;
  @IsOptional() @ValidateNested() @Type(() => BrowserInfoDto) browser_info?: BrowserInfoDto;
  @IsOptional() @IsString() @MaxLength(1024) @Matches(URI, { message: 'must be a web URL or an application URI' }) return_url?: string;
}

export class CapturePaymentIntentBody {
  @IsOptional() @IsString() @Matches(DECIMAL, { message: 'must be a decimal string such as "10.50"' }) amount_to_capture?: string;
}

export class CancelPaymentIntentBody {
  @IsOptional()
  @IsIn(CANCELLATION_REASONS, { message: `must be one of ${CANCELLATION_REASONS.join(', ')}` })
  cancellation_reason?: CancellationReason;
}

/** Our ids are `<prefix>_<26 characters>`, at most 36 (spec 8); anything else cannot exist. */
export class ResourceIdParam {
  @IsString() @MaxLength(36) @Matches(/^[A-Za-z0-9_-]+$/, { message: 'must be an id' }) id!: string;
}

const TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const TIME_RULE = { message: 'must be an ISO 8601 timestamp' };

export class ListPaymentIntentsQuery extends PaginationQuery {
  @IsOptional() @IsIn(INTENT_STATUSES, { message: `must be one of ${INTENT_STATUSES.join(', ')}` }) intent_status?: IntentStatus;
  @IsOptional() @Matches(TIME, TIME_RULE) create_start_time?: string;
  @IsOptional() @Matches(TIME, TIME_RULE) create_end_time?: string;
}

export class ListPaymentAttemptsQuery extends PaginationQuery {
  @IsOptional() @IsString() @MaxLength(36) payment_intent_id?: string;
  @IsOptional() @IsIn(ATTEMPT_STATUSES, { message: `must be one of ${ATTEMPT_STATUSES.join(', ')}` }) attempt_status?: AttemptStatus;
}

export class CreateRefundBody {
  @IsString() @IsNotEmpty() @MaxLength(36) payment_intent_id!: string;
  @IsString() @Matches(DECIMAL, { message: 'must be a decimal string such as "10.50"' }) amount!: string;
  /** The SDK's type requires it, its README leaves it out: accepted, not required. */
  @IsOptional() @IsString() @MaxLength(TEXT) reason?: string;
  @IsOptional() @IsString() @MaxLength(36) payment_attempt_id?: string;
  @IsOptional() @IsStringMap() metadata?: Record<string, string>;
}

export class ListRefundsQuery extends PaginationQuery {
  @IsOptional() @Matches(TIME, TIME_RULE) start_time?: string;
  @IsOptional() @Matches(TIME, TIME_RULE) end_time?: string;
  @IsOptional() @IsString() @MaxLength(36) payment_intent_id?: string;
  @IsOptional() @IsString() @MaxLength(36) merchant_order_id?: string;
}

export class ListSettlementsQuery extends PaginationQuery {
  @IsOptional() @IsString() @MaxLength(36) payment_intent_id?: string;
  @IsOptional() @IsString() @MaxLength(36) settlement_batch_id?: string;
  @IsOptional() @Matches(TIME, TIME_RULE) settled_start_time?: string;
  @IsOptional() @Matches(TIME, TIME_RULE) settled_end_time?: string;
}

/** Hosted pages: the client_secret is the credential. */
export class ClientSecretQuery {
  @IsString() @MaxLength(200) @Matches(/^pi_[A-Za-z0-9_-]+$/, { message: 'must be a client_secret' }) client_secret!: string;
}

/** The checkout page's payment: a new card or one of the customer's saved cards. */
export class HostedPayBody extends ClientSecretQuery {
  @IsOptional() @ValidateNested() @Type(() => CardDto) card?: CardDto;
  @IsOptional() @IsString() @MaxLength(36) saved_card_id?: string;
}

export class HostedThreeDsBody extends ClientSecretQuery {
  @IsIn(['approve', 'fail'], { message: 'must be approve or fail' }) outcome!: 'approve' | 'fail';
}
