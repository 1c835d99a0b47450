import 'reflect-metadata';
import {
  IsBoolean,
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
  ValidationArguments,
} from 'class-validator';
import {
  all,
  Amount,
  CurrencyCode,
  IsoTime,
  Metadata,
  Nested,
  NestedList,
  RequiredWhen,
  ResourceId,
} from '../validation/field-rules';
import { PagePayload } from '../validation/paging';
import {
  ATTEMPT_STATUS_FILTERS,
  AttemptStatusFilter,
  CANCELLATION_REASONS,
  CancellationReason,
  INTENT_STATUSES,
  IntentStatus,
  THREE_DS_ACTIONS,
  ThreeDsAction,
} from './acquiring.views';

/**
 * The rules of every acquiring request, once (spec 4.1, 4.2, 8; wire-compat §9.1–9.9): the gateway
 * validates the HTTP body with these classes and the acquiring service validates the command payload
 * with the same ones. Where the wire body is the payload, it is one class; where the gateway adds to it
 * (the intent id from the path, the card sealed), the payload extends the body's fields.
 *
 * Card numbers and CVCs appear only in `CardInput` (the HTTP body); on the bus the card is a
 * `SealedCard` whose `sealed` text libs/card-crypto makes and opens.
 */
type Rule = PropertyDecorator;

/** A string of at most `max` characters; empty allowed (the SDKs send "" for fields they leave blank). */
const Str = (max: number, options: { optional?: boolean } = {}): Rule =>
  options.optional ? all(IsOptional(), IsString(), MaxLength(max)) : all(IsString(), MaxLength(max));
/** A non-empty string of at most `max` characters. */
const Filled = (max: number, options: { optional?: boolean } = {}): Rule =>
  options.optional
    ? all(IsOptional(), IsString(), IsNotEmpty(), MaxLength(max))
    : all(IsString(), IsNotEmpty(), MaxLength(max));
const OneOf = (values: readonly string[], options: { optional?: boolean; message?: string } = {}): Rule => {
  const rule = IsIn(values, {
    message: `$property ${options.message ?? `must be one of ${values.join(', ')}`}`,
  });
  return options.optional ? all(IsOptional(), rule) : rule;
};
/** A web URL or an application URI: a scheme, then anything. */
const Uri = (options: { optional?: boolean } = {}): Rule =>
  all(
    ...(options.optional ? [IsOptional()] : []),
    IsString(),
    MaxLength(1024),
    Matches(/^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/, {
      message: '$property must be a web URL or an application URI',
    }),
  );
const EmailAddress = (): Rule =>
  all(IsOptional(), IsEmail({}, { message: '$property must be an email address' }), MaxLength(254));
const IntFrom = (min: number, max: number): Rule => all(IsOptional(), IsInt(), Min(min), Max(max));
const Flag = (): Rule => all(IsOptional(), IsBoolean());

const TEXT = 255;
export const COUNTRIES_REQUIRING_STATE = ['US', 'CA'] as const;

// ---------------------------------------------------------------------------------------------------
// Parts
// ---------------------------------------------------------------------------------------------------

class AddressInputFields {
  @IsOptional()
  @Matches(/^[A-Z]{2}$/, { message: '$property must be an ISO 3166-1 alpha-2 country code' })
  country_code?: string;
  @Str(100, { optional: true }) city?: string;
  @Str(TEXT, { optional: true }) street?: string;
  @Str(20, { optional: true }) postcode?: string;
}

export class AddressInput extends AddressInputFields {
  @Str(100, { optional: true }) state?: string;
}

const requiresState = (address: Record<string, unknown>) =>
  (COUNTRIES_REQUIRING_STATE as readonly unknown[]).includes(address.country_code);
const stateRequired = {
  message: (args: ValidationArguments) =>
    `$property is required when country_code is ${String((args.object as AddressInput).country_code)}`,
};

/** A card's billing address: spec 4.1 wants its state in the US and Canada. */
export class BillingAddressInput extends AddressInputFields {
  @all(RequiredWhen(requiresState, '', stateRequired), IsString(), IsNotEmpty(stateRequired), MaxLength(100))
  state?: string;
}

export class BillingInput {
  @Str(100, { optional: true }) first_name?: string;
  @Str(100, { optional: true }) last_name?: string;
  @EmailAddress() email?: string;
  @Str(32, { optional: true }) phone_number?: string;
  @Nested(() => BillingAddressInput, { optional: true }) address?: BillingAddressInput;
}

export class ThreeDsInput {
  @Str(1024, { optional: true }) return_url?: string;
  @Str(8192, { optional: true }) acs_response?: string;
  @Str(8192, { optional: true }) device_data_collection_res?: string;
  @Str(64, { optional: true }) ds_transaction_id?: string;
}

/** The card's fields that are not secret: they travel as they are. */
export class CardFields {
  @Str(100, { optional: true }) card_name?: string;
  @IsString()
  @Matches(/^(0[1-9]|1[0-2])$/, { message: '$property must be MM (01-12)' })
  expiry_month!: string;
  @IsString() @Matches(/^(\d{2}|\d{4})$/, { message: '$property must be YYYY' }) expiry_year!: string;
  @Nested(() => BillingInput, { optional: true }) billing?: BillingInput;
  @Flag() auto_capture?: boolean;
  @Nested(() => ThreeDsInput, { optional: true }) three_ds?: ThreeDsInput;
  @OneOf(THREE_DS_ACTIONS, { optional: true }) three_ds_action?: ThreeDsAction;
}

/** A card as merchants and the hosted page send it to the gateway (never beyond: see SealedCard). */
export class CardInput extends CardFields {
  @IsString()
  @Matches(/^[0-9][0-9 -]{10,24}[0-9]$/, { message: '$property must be 12 to 19 digits' })
  card_number!: string;
  @IsString() @Matches(/^\d{3,4}$/, { message: '$property must be 3 or 4 digits' }) cvc!: string;
}

/** A card on the bus: number and CVC sealed under CARD_TRANSPORT_KEY (libs/card-crypto). */
export class SealedCard extends CardFields {
  @Filled(2048) sealed!: string;
}

export class PaymentMethodInput {
  @Nested(() => CardInput) card!: CardInput;
}

export class SealedPaymentMethod {
  @Nested(() => SealedCard) card!: SealedCard;
}

export class CustomerInput {
  @Str(64, { optional: true }) external_customer_id?: string;
  @Str(100, { optional: true }) first_name?: string;
  @Str(100, { optional: true }) last_name?: string;
  @EmailAddress() email?: string;
  @Str(32, { optional: true }) phone_number?: string;
  @Nested(() => AddressInput, { optional: true }) address?: AddressInput;
  @Metadata() metadata?: Record<string, string>;
}

export class PaymentOrderProductInput {
  @Filled(TEXT) name!: string;
  @Amount() price!: string;
  @IsInt() @Min(1) @Max(1_000_000) quantity!: number;
  @Str(1024, { optional: true }) image_url?: string;
}

export class PaymentOrdersInput {
  @Str(50, { optional: true }) type?: string;
  @NestedList(() => PaymentOrderProductInput, { optional: true, max: 100 }) products?: PaymentOrderProductInput[];
}

/** 3-D Secure 2 browser data (EMV 3DS field names); `mobile` only for mobile clients (spec 2025-12-04). */
export class MobileInfo {
  @Str(100, { optional: true }) device_model?: string;
  @Str(50, { optional: true }) os_type?: string;
  @Str(50, { optional: true }) os_version?: string;
}

export class BrowserInfo {
  @Str(2048, { optional: true }) accept_header?: string;
  @Str(2048, { optional: true }) user_agent?: string;
  @Str(35, { optional: true }) language?: string;
  @IntFrom(1, 48) color_depth?: number;
  @IntFrom(0, 100_000) screen_height?: number;
  @IntFrom(0, 100_000) screen_width?: number;
  @IntFrom(-900, 900) time_zone?: number;
  @Flag() java_enabled?: boolean;
  @Flag() javascript_enabled?: boolean;
  @Str(45, { optional: true }) ip_address?: string;
  @Nested(() => MobileInfo, { optional: true }) mobile?: MobileInfo;
}

/** Spec 4.1: with `enforce_3ds` the shopper's IP address and browser data are required. */
const enforcesThreeDs = (body: Record<string, unknown>) =>
  (body.payment_method as { card?: { three_ds_action?: unknown } } | undefined)?.card?.three_ds_action ===
  'enforce_3ds';
const WHEN_ENFORCE_3DS = 'when payment_method.card.three_ds_action is enforce_3ds';
const ShopperIp = (): Rule =>
  all(
    RequiredWhen(enforcesThreeDs, WHEN_ENFORCE_3DS),
    IsIP(undefined, { message: '$property must be an IPv4 or IPv6 address' }),
    MaxLength(45),
  );
const ShopperBrowser = (): Rule =>
  all(
    RequiredWhen(enforcesThreeDs, WHEN_ENFORCE_3DS),
    Nested(() => BrowserInfo),
  );

// ---------------------------------------------------------------------------------------------------
// Payment intents
// ---------------------------------------------------------------------------------------------------

/** The fields of a new intent besides its card (the currency first: the amount is read in it). */
export class CreateIntentFields {
  @CurrencyCode() currency!: string;
  @Amount({ currencyField: 'currency' }) amount!: string;
  @Filled(32) description!: string;
  @Filled(36) merchant_order_id!: string;
  @Uri() return_url!: string;
  @ShopperIp() ip_address?: string;
  @Nested(() => CustomerInput, { optional: true }) customer?: CustomerInput;
  @ResourceId({ optional: true }) customer_id?: string;
  @Nested(() => PaymentOrdersInput, { optional: true }) payment_orders?: PaymentOrdersInput;
  @ShopperBrowser() browser_info?: BrowserInfo;
  @Metadata() metadata?: Record<string, string>;
}

/** POST /v2/payment_intents/create: confirmed at once when a card is given. */
export class CreatePaymentIntentBody extends CreateIntentFields {
  @Nested(() => PaymentMethodInput, { optional: true }) payment_method?: PaymentMethodInput;
}

export class CreateIntentPayload extends CreateIntentFields {
  @Nested(() => SealedPaymentMethod, { optional: true }) payment_method?: SealedPaymentMethod;
}

export class IntentIdPayload {
  @ResourceId() payment_intent_id!: string;
}

/** POST /v2/payment_intents/{id}: a new amount is read in the new currency, else the intent's. */
export class UpdatePaymentIntentBody {
  @CurrencyCode({ optional: true }) currency?: string;
  @Amount({ optional: true, currencyField: 'currency' }) amount?: string;
  @Nested(() => CustomerInput, { optional: true }) customer?: CustomerInput;
  @ResourceId({ optional: true }) customer_id?: string;
  @Nested(() => PaymentOrdersInput, { optional: true }) payment_orders?: PaymentOrdersInput;
  @Filled(36, { optional: true }) merchant_order_id?: string;
  @Filled(32, { optional: true }) description?: string;
  @Metadata() metadata?: Record<string, string>;
  @Uri({ optional: true }) return_url?: string;
}

export class UpdateIntentPayload extends UpdatePaymentIntentBody {
  @ResourceId() payment_intent_id!: string;
}

export class ConfirmIntentFields {
  @ShopperIp() ip_address?: string;
  @ShopperBrowser() browser_info?: BrowserInfo;
  @Uri({ optional: true }) return_url?: string;
}

/**
 * POST /v2/payment_intents/{id}/confirm: every field optional (wire-compat §9.4; the SDK sends `{}` when
 * the caller gives nothing). Without payment_method the intent's card on file is used.
 */
export class ConfirmPaymentIntentBody extends ConfirmIntentFields {
  @Nested(() => PaymentMethodInput, { optional: true }) payment_method?: PaymentMethodInput;
}

export class ConfirmIntentPayload extends ConfirmIntentFields {
  @ResourceId() payment_intent_id!: string;
  @Nested(() => SealedPaymentMethod, { optional: true }) payment_method?: SealedPaymentMethod;
}

/** All of the authorised amount, or `amount_to_capture` of it (read in the intent's currency). */
export class CapturePaymentIntentBody {
  @Amount({ optional: true }) amount_to_capture?: string;
}

export class CaptureIntentPayload extends CapturePaymentIntentBody {
  @ResourceId() payment_intent_id!: string;
}

export class CancelPaymentIntentBody {
  @OneOf(CANCELLATION_REASONS, { optional: true }) cancellation_reason?: CancellationReason;
}

export class CancelIntentPayload extends CancelPaymentIntentBody {
  @ResourceId() payment_intent_id!: string;
}

export class ListIntentsPayload extends PagePayload {
  @OneOf(INTENT_STATUSES, { optional: true }) intent_status?: IntentStatus;
  @IsoTime({ optional: true }) create_start_time?: string;
  @IsoTime({ optional: true }) create_end_time?: string;
}

// ---------------------------------------------------------------------------------------------------
// Attempts, refunds, settlements
// ---------------------------------------------------------------------------------------------------

export class AttemptIdPayload {
  @ResourceId() attempt_id!: string;
}

export class ListAttemptsPayload extends PagePayload {
  @ResourceId({ optional: true }) payment_intent_id?: string;
  @OneOf(ATTEMPT_STATUS_FILTERS, { optional: true }) attempt_status?: AttemptStatusFilter;
}

/** POST /v2/payment/refunds: the amount is read in the intent's currency. */
export class CreateRefundPayload {
  @ResourceId() payment_intent_id!: string;
  @Amount() amount!: string;
  /** The SDK's type requires it, its README leaves it out: accepted, not required. */
  @Str(TEXT, { optional: true }) reason?: string;
  @ResourceId({ optional: true }) payment_attempt_id?: string;
  @Metadata() metadata?: Record<string, string>;
}

export class RefundIdPayload {
  @ResourceId() refund_id!: string;
}

export class ListRefundsPayload extends PagePayload {
  @IsoTime({ optional: true }) start_time?: string;
  @IsoTime({ optional: true }) end_time?: string;
  @ResourceId({ optional: true }) payment_intent_id?: string;
  @Filled(36, { optional: true }) merchant_order_id?: string;
}

export class ListSettlementsPayload extends PagePayload {
  @ResourceId({ optional: true }) payment_intent_id?: string;
  @ResourceId({ optional: true }) settlement_batch_id?: string;
  @IsoTime({ optional: true }) settled_start_time?: string;
  @IsoTime({ optional: true }) settled_end_time?: string;
}

// ---------------------------------------------------------------------------------------------------
// Hosted pages: the intent's client_secret is the credential (no merchant actor)
// ---------------------------------------------------------------------------------------------------

export class HostedSessionPayload {
  @IsString()
  @MaxLength(200)
  @Matches(/^pi_[A-Za-z0-9_-]+$/, { message: '$property must be a client_secret' })
  client_secret!: string;
}

/** The checkout page's payment: a new card or one of the customer's saved cards. */
export class HostedPayBody extends HostedSessionPayload {
  @Nested(() => CardInput, { optional: true }) card?: CardInput;
  @ResourceId({ optional: true }) saved_card_id?: string;
}

/** Exactly one of the two: a new card (sealed like any other) or a saved card of the intent's customer. */
export class HostedConfirmPayload extends HostedSessionPayload {
  @Nested(() => SealedPaymentMethod, { optional: true }) payment_method?: SealedPaymentMethod;
  @ResourceId({ optional: true }) saved_card_id?: string;
}

export class HostedThreeDsPayload extends HostedSessionPayload {
  @OneOf(['approve', 'fail'], { message: 'must be approve or fail' }) outcome!: 'approve' | 'fail';
}
