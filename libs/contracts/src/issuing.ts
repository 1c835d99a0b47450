import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { MoneyFormatError, parseMajorNumber } from '@paygrid/money';
import type { Page } from './acquiring';
import { defineCommand, returns } from './command-definition';
import { Country } from './validation/field-rules';
import { PageQueryPayload } from './validation/page-query';

/**
 * Commands, views, events and statuses of the issuing service (spec 2.7–2.9, 3, 4.5–4.7, 4.10, 6, 7.3–7.5, 8;
 * wire-compat §11.1–11.9; decisions §1, §4–§7; docs/issuing.md).
 *
 * The payload classes are the shape rules: the gateway validates bodies and queries with them, the issuing
 * service validates every command payload with them again. Rules that the spec answers with its own codes
 * (cardholder_error `invalid_first_name`, card_error `invalid expiry_at`, envelope B "Card status is invalid")
 * need the stored state or are named by the spec, so the service applies them (apps/issuing, `*.rules.ts`).
 *
 * Secrets never travel in clear (architecture rule 7): the gateway seals a card number, PIN or activation code
 * into `sealed` fields before the command leaves it, and issuing seals the sensitive details it answers with.
 * Issuing amounts are JSON numbers in major units with at most two decimals (decisions §5).
 */

// ---------------------------------------------------------------------------------------------------
// Statuses and enumerations (spec 2.7–2.9, 3; decisions §7; wire-compat §11)
// ---------------------------------------------------------------------------------------------------

export const CARD_STATUSES = ['PENDING', 'ACTIVE', 'FROZEN', 'BLOCKED', 'CANCELLED', 'LOST', 'STOLEN', 'FAILED'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

/** What update-status accepts as a target (the SDK types ACTIVE, FROZEN, CANCELLED; LOST and STOLEN are reports). */
export const CARD_STATUS_TARGETS = ['ACTIVE', 'FROZEN', 'CANCELLED', 'LOST', 'STOLEN'] as const;
export type CardStatusTarget = (typeof CARD_STATUS_TARGETS)[number];

export const CARD_ORDER_STATUSES = ['PENDING', 'PROCESSING', 'SUCCESS', 'FAILED'] as const;
export type CardOrderStatus = (typeof CARD_ORDER_STATUSES)[number];

/** The spec's five order types, plus CARD_STATUS_UPDATE for the order an update-status answers with. */
export const CARD_ORDER_TYPES = [
  'CARD_CREATE',
  'CARD_RECHARGE',
  'CARD_WITHDRAW',
  'CARD_UPDATE',
  'CARD_ELEVATE_LIMIT',
  'CARD_STATUS_UPDATE',
] as const;
export type CardOrderType = (typeof CARD_ORDER_TYPES)[number];

export const CARDHOLDER_STATUSES = ['PENDING', 'SUCCESS', 'FAILED', 'INCOMPLETE'] as const;
export type CardholderStatus = (typeof CARDHOLDER_STATUSES)[number];
export type IdvStatus = 'PENDING' | 'PASSED' | 'FAILED' | '';

export const CARD_CURRENCIES = ['USD', 'SGD', 'XUSD'] as const;
export type CardCurrency = (typeof CARD_CURRENCIES)[number];

export const CARD_MODES = ['SHARE', 'SINGLE'] as const;
export type CardMode = (typeof CARD_MODES)[number];
export const CARD_FORMS = ['VIR', 'PHY'] as const;
export type CardForm = (typeof CARD_FORMS)[number];
export const CARD_TYPES = ['VIRTUAL', 'PHYSICAL'] as const;
export type CardType = (typeof CARD_TYPES)[number];
export type ProductStatus = 'ENABLED' | 'DISABLED';
export type KycLevel = 'SIMPLIFIED' | 'STANDARD' | 'ENHANCED';

export const USAGE_TYPES = ['NORMAL', 'ONE_TIME'] as const;
export type UsageType = (typeof USAGE_TYPES)[number];
export const AUTO_CANCEL_TRIGGERS = ['ON_AUTH', 'ON_CAPTURE'] as const;
export type AutoCancelTrigger = (typeof AUTO_CANCEL_TRIGGERS)[number];

export const SPENDING_INTERVALS = ['PER_TRANSACTION', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'ALL_TIME'] as const;
export type SpendingInterval = (typeof SPENDING_INTERVALS)[number];

export const GENDERS = ['MALE', 'FEMALE', 'OTHER'] as const;
export const IDENTITY_TYPES = ['ID_CARD', 'PASSPORT'] as const;
export const KYC_METHODS = ['THIRD_PARTY', 'SUMSUB_REDIRECT'] as const;
export const DOCUMENT_TYPES = ['pdf', 'png', 'jpg', 'jpeg'] as const;

/** The key permission the sensitive-details and PAN-token routes need (decisions §2, docs/accounts.md). */
export const SENSITIVE_CARD_DETAILS_PERMISSION = 'sensitive_card_details';

/** Decisions §4: per card, at most this many sensitive-details or PAN-token requests a minute. */
export const SENSITIVE_REQUESTS_PER_MINUTE = 10;

// ---------------------------------------------------------------------------------------------------
// Field rules of issuing (decisions §5) and of the spec's shapes
// ---------------------------------------------------------------------------------------------------

/** Spec 8: update reason at most 100 characters (a CJK character counts twice: "50 Chinese characters"). */
export const UPDATE_REASON_MAX = 100;
/** Spec 8 (per-transaction limit elevation). */
export const ELEVATION_DAYS = { min: 1, max: 14, default: 14 } as const;
export const ELEVATION_MAX_MAJOR: Record<CardCurrency, number> = { USD: 80_000, XUSD: 80_000, SGD: 100_000 };
/** Card metadata: a flat string map, as small as the spec's other metadata (spec 8: 512 bytes). */
export const CARD_METADATA_MAX_BYTES = 512;
/** Spec 8: decoded documents must be under 2 MB. */
export const DOCUMENT_MAX_BYTES = 2 * 1024 * 1024;
/** Base64 of a document just under the limit; longer text is refused before it is decoded. */
const BASE64_FILE_MAX_LENGTH = Math.ceil(DOCUMENT_MAX_BYTES / 3) * 4 + 4;
export const BULK_CREATE_MAX = 100;

/**
 * An issuing amount (decisions §5): a JSON number in major units with at most two decimals, > 0 (or ≥ 0 with
 * `allowZero`, as card_limit and no-PIN amounts are). Checked exactly through @paygrid/money, never with floats.
 */
export const IssuingAmount = (options: { allowZero?: boolean } = {}): PropertyDecorator =>
  ValidateBy({
    name: 'isIssuingAmount',
    validator: {
      validate: (value: unknown) => issuingAmountProblem(value, options.allowZero === true) === undefined,
      defaultMessage: (args) => `$property ${issuingAmountProblem(args?.value, options.allowZero === true)}`,
    },
  });

export function issuingAmountProblem(value: unknown, allowZero: boolean): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number in major units, e.g. 10.5';
  try {
    parseMajorNumber(value, 2, { allowZero });
    return undefined;
  } catch (error) {
    if (!(error instanceof MoneyFormatError)) throw error;
    return error.reason;
  }
}

/** The spec's card metadata: a flat string→string map (no nesting), small. */
export const FlatStringMap = (): PropertyDecorator =>
  ValidateBy({
    name: 'isFlatStringMap',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.entries(value).every(([key, entry]) => key.length > 0 && typeof entry === 'string' && !`${key}${entry}`.includes('\u0000')) &&
        Buffer.byteLength(JSON.stringify(value)) <= CARD_METADATA_MAX_BYTES,
      defaultMessage: () => `$property must be a flat map of strings of at most ${CARD_METADATA_MAX_BYTES} bytes`,
    },
  });

/** Text Postgres can store: a NUL character would fail the write (a 500), so it is refused as input. */
const NO_NUL = Matches(/^[^\u0000]*$/, { message: '$property must not contain NUL characters' });
const CardholderText = (max = 100) => [IsString(), MaxLength(max), NO_NUL];
const apply =
  (...rules: PropertyDecorator[]): PropertyDecorator =>
  (target, key) =>
    rules.forEach((rule) => rule(target, key));
const OptionalText = (max = 100) => apply(IsOptional(), ...CardholderText(max));
/** A base64 file (the service checks the alphabet, type and decoded size, with the spec's codes). */
const OptionalFile = () => apply(IsOptional(), IsString(), MaxLength(BASE64_FILE_MAX_LENGTH));

// ---------------------------------------------------------------------------------------------------
// Cardholders (wire-compat §11.3, spec 7.5)
// ---------------------------------------------------------------------------------------------------

export class DeliveryAddressInput {
  @OptionalText() country?: string;
  @OptionalText() state?: string;
  @OptionalText() city?: string;
  @OptionalText(200) line1?: string;
  @OptionalText(200) line2?: string;
  @OptionalText(20) postal_code?: string;
}

export class ResidentialAddressInput {
  @Country() country!: string;
  @OptionalText() state?: string;
  @apply(...CardholderText()) city!: string;
  @OptionalText() district?: string;
  @apply(...CardholderText(200)) line1!: string;
  @OptionalText(200) line2?: string;
  @OptionalText(200) line_en?: string;
  @OptionalText(20) postal_code?: string;
}

export class IdentityInput {
  /** ID_CARD or PASSPORT; anything else is `invalid_identity_type` (the service's rule). */
  @apply(...CardholderText(20)) type!: string;
  @apply(...CardholderText(64)) number!: string;
  @OptionalFile() front_file?: string;
  @OptionalFile() back_file?: string;
  @OptionalFile() hand_file?: string;
}

export class KycVerificationInput {
  /** THIRD_PARTY or SUMSUB_REDIRECT; anything else is `invalid_kyc_method`. */
  @apply(...CardholderText(30)) method!: string;
  @OptionalFile() kyc_proof?: string;
  /** At least 10 characters, unique in the account (the service's rules). */
  @OptionalText(64) reference_id?: string;
}

/** The cardholder fields both create and update accept, all optional. */
export class CardholderOptionalFields {
  /** YYYY-MM-DD, age 18 or more (`invalid_date_of_birth`, the service's rule). */
  @OptionalText(20) date_of_birth?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => DeliveryAddressInput) delivery_address?: DeliveryAddressInput;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => ResidentialAddressInput) residential_address?: ResidentialAddressInput;
  /** pdf, png, jpg or jpeg; anything else is `file_type_not_supported`. */
  @OptionalText(10) document_type?: string;
  @OptionalFile() document?: string;
  @IsOptional() @IsIn(GENDERS) gender?: (typeof GENDERS)[number];
  @Country({ optional: true }) nationality?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => IdentityInput) identity?: IdentityInput;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => KycVerificationInput) kyc_verification?: KycVerificationInput;
}

export class CreateCardholderPayload extends CardholderOptionalFields {
  @IsEmail() @MaxLength(100) email!: string;
  /** ASCII letters and spaces (`invalid_first_name`, the service's rule). */
  @apply(...CardholderText(50)) first_name!: string;
  @apply(...CardholderText(50)) last_name!: string;
  /** ISO 3166-1 alpha-2 or a digits-only calling code (decisions §1), checked with the phone number. */
  @apply(...CardholderText(8)) country_code!: string;
  @apply(...CardholderText(24)) phone_number!: string;
}

export class UpdateCardholderBody extends CardholderOptionalFields {
  @IsOptional() @IsEmail() @MaxLength(100) email?: string;
  @OptionalText(8) country_code?: string;
  @OptionalText(24) phone_number?: string;
}

export class CardholderRef {
  @IsUUID() cardholder_id!: string;
}

export class UpdateCardholderPayload extends UpdateCardholderBody {
  @IsUUID() cardholder_id!: string;
}

export class ListCardholdersPayload extends PageQueryPayload {
  @IsOptional() @IsIn(CARDHOLDER_STATUSES) cardholder_status?: CardholderStatus;
}

// ---------------------------------------------------------------------------------------------------
// Cards (wire-compat §11.4–11.8, spec 4.6, 4.7, 7.3, 7.4, 8)
// ---------------------------------------------------------------------------------------------------

export class SpendingControlInput {
  @IsIn(SPENDING_INTERVALS) interval!: SpendingInterval;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @Matches(/^\d{4}$/, { each: true, message: 'each value in $property must be a 4-digit merchant category code' })
  categories?: string[];
  @IsOptional() @IssuingAmount() amount?: number;
}

export class RiskControlsInput {
  @IsOptional() @IsBoolean() allow_contactless?: boolean;
  @IsOptional() @IsBoolean() allow_atm?: boolean;
  @IsOptional() @IsBoolean() allow_online?: boolean;
  @IsOptional() @IsBoolean() enable_3ds?: boolean;
}

/** Inline KYC on card create (spec 2026-04-24): supplements a cardholder, or creates one without cardholder_id. */
export class CardholderRequiredFieldsInput extends CardholderOptionalFields {
  @IsOptional() @IsEmail() @MaxLength(100) email?: string;
  @OptionalText(50) first_name?: string;
  @OptionalText(50) last_name?: string;
  @OptionalText(8) country_code?: string;
  @OptionalText(24) phone_number?: string;
}

/** What create and update share. */
export class CardControlsFields {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => SpendingControlInput)
  spending_controls?: SpendingControlInput[];
  @IsOptional() @IsObject() @ValidateNested() @Type(() => RiskControlsInput) risk_controls?: RiskControlsInput;
  @IsOptional() @FlatStringMap() metadata?: Record<string, string>;
  @IsOptional() @IsUUID() card_art_id?: string;
}

export class CreateCardPayload extends CardControlsFields {
  @IsIn(CARD_CURRENCIES) card_currency!: CardCurrency;
  /** Required unless cardholder_required_fields describe a new cardholder (the service's rule). */
  @IsOptional() @IsUUID() cardholder_id?: string;
  @IsUUID() card_product_id!: string;
  @IsOptional() @IsIn(CARD_TYPES) card_type?: CardType;
  @IsOptional() @IssuingAmount({ allowZero: true }) card_limit?: number;
  @IsOptional() @IsIn(USAGE_TYPES) usage_type?: UsageType;
  /** ON_AUTH or ON_CAPTURE, required for ONE_TIME: the spec answers both with its own card_error codes. */
  @OptionalText(20) auto_cancel_trigger?: string;
  /** A future ISO 8601 timestamp with an offset, within the product's one-time lifetime (the service's rule). */
  @OptionalText(40) expiry_at?: string;
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CardholderRequiredFieldsInput)
  cardholder_required_fields?: CardholderRequiredFieldsInput;
}

export class CardRef {
  @IsUUID() card_id!: string;
}

export class UpdateCardBody extends CardControlsFields {
  @IsOptional() @IssuingAmount({ allowZero: true }) card_limit?: number;
  @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) no_pin_payment_amount?: number;
}
export class UpdateCardPayload extends UpdateCardBody {
  @IsUUID() card_id!: string;
}

export class UpdateCardStatusBody {
  @IsIn(CARD_STATUS_TARGETS) card_status!: CardStatusTarget;
  /** Spec 8's limit is the service's rule ("Update reason is too long"); this only bounds the input. */
  @IsOptional() @IsString() @MaxLength(1000) @Matches(/^[^\u0000]*$/, { message: '$property must not contain NUL characters' }) update_reason?: string;
}
export class UpdateCardStatusPayload extends UpdateCardStatusBody {
  @IsUUID() card_id!: string;
}

/** What activate carries besides its secrets. */
export class ActivateCardFields {
  @IsUUID() card_id!: string;
  @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) no_pin_payment_amount?: number;
}
export class ActivateCardBody extends ActivateCardFields {
  @IsString() @MinLength(1) @MaxLength(32) activation_code!: string;
  @IsString() @Matches(/^\d{4,6}$/, { message: '$property must be 4 to 6 digits' }) pin!: string;
}
/** `sealed`: the activation code and PIN, sealed by the gateway (IssuingSecrets of @paygrid/card-crypto). */
export class ActivateCardPayload extends ActivateCardFields {
  @IsString() @MaxLength(4096) sealed!: string;
}

export class ResetPinBody {
  @IsString() @Matches(/^\d{4,6}$/, { message: '$property must be 4 to 6 digits' }) pin!: string;
}
export class ResetPinPayload {
  @IsUUID() card_id!: string;
  @IsString() @MaxLength(4096) sealed!: string;
}

export class AssignCardFields {
  @IsUUID() cardholder_id!: string;
  @IsIn(CARD_CURRENCIES) card_currency!: CardCurrency;
  @IsIn(CARD_MODES) card_mode!: CardMode;
}
export class AssignCardBody extends AssignCardFields {
  /** A pool number of the account; anything else (wrong length too) is "card number not exist". */
  @IsString() @MinLength(1) @MaxLength(32) card_number!: string;
}
export class AssignCardPayload extends AssignCardFields {
  @IsString() @MaxLength(4096) sealed_card_number!: string;
}

export class CardAmountBody {
  @IssuingAmount() amount!: number;
}
export class CardAmountPayload extends CardAmountBody {
  @IsUUID() card_id!: string;
}

export class ElevateLimitBody {
  /** The per-transaction limit while the elevation lasts (spec 8: at most 80,000 USD/XUSD, 100,000 SGD). */
  @IssuingAmount() per_transaction_limit!: number;
  @IsOptional() @IsInt() @Min(ELEVATION_DAYS.min) @Max(ELEVATION_DAYS.max) duration_in_days?: number;
}
export class ElevateLimitPayload extends ElevateLimitBody {
  @IsUUID() card_id!: string;
}

export class BulkCreateCardsPayload {
  @IsUUID() card_product_id!: string;
  @IsIn(CARD_CURRENCIES) card_currency!: CardCurrency;
  @IsInt() @Min(1) @Max(BULK_CREATE_MAX) quantity!: number;
}

export class ListCardsFilters extends PageQueryPayload {
  @IsOptional() @IsIn(CARD_STATUSES) card_status?: CardStatus;
  @IsOptional() @IsUUID() cardholder_id?: string;
}
export class ListCardsQuery extends ListCardsFilters {
  @IsOptional() @IsString() @MaxLength(32) card_number?: string;
}
export class ListCardsPayload extends ListCardsFilters {
  @IsOptional() @IsString() @MaxLength(4096) sealed_card_number?: string;
}

export class CardOrderRef {
  @IsUUID() card_order_id!: string;
}

export class CardArtRef {
  @IsUUID() card_art_id!: string;
}

export class ListProductsPayload extends PageQueryPayload {}
export class ListCardArtsPayload extends PageQueryPayload {}

// ---------------------------------------------------------------------------------------------------
// Views (what the API answers; data of the events)
// ---------------------------------------------------------------------------------------------------

export interface RequiredField {
  name: string;
  type: 'string' | 'object';
  required: boolean;
  description?: string;
  fields?: RequiredField[];
}

export interface CardProductView {
  product_id: string;
  mode_type: CardMode;
  card_bin: string;
  card_form: CardForm[];
  max_card_quota: number;
  card_scheme: string;
  /** Decisions §1: the spec's string amounts. */
  no_pin_payment_amount: { amount: string; currency: string }[];
  card_currency: CardCurrency[];
  create_time: string;
  update_time: string;
  product_status: ProductStatus;
  kyc_level: KycLevel;
  required_fields: RequiredField[];
}

export interface CardholderWriteView {
  cardholder_id: string;
  cardholder_status: CardholderStatus;
  idv_verification_url?: string;
  idv_url_expires_at?: string;
}

export interface CardholderView {
  cardholder_id: string;
  email: string;
  first_name: string;
  last_name: string;
  cardholder_status: CardholderStatus;
  country_code: string;
  phone_number: string;
  number_of_cards: number;
  create_time: string;
  date_of_birth?: string;
  delivery_address?: Record<string, string>;
  residential_address?: Record<string, string>;
  review_status: string;
  gender?: string;
  nationality?: string;
  /** Type and number only: documents are never returned. */
  identity?: { type: string; number: string };
  idv_status: IdvStatus;
  idv_verification_url?: string;
  idv_url_expires_at?: string;
}

/** The SDK's typed payload of cardholder.kyc.status_changed and cardholder.updated (wire-compat §13.4). */
export interface CardholderEventData {
  cardholder_id: string;
  email: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  country_code: string;
  nationality: string;
  phone_number: string;
  cardholder_status: CardholderStatus;
  idv_status: IdvStatus;
  idv_provider: string;
  create_time: string;
}

/** A spending control as a card shows it. */
export interface SpendingControlView {
  interval: SpendingInterval;
  categories?: string[];
  amount?: number;
}

/** Risk controls as a card shows them. */
export interface RiskControlsView {
  allow_contactless?: boolean;
  allow_atm?: boolean;
  allow_online?: boolean;
  enable_3ds?: boolean;
}

export interface NetworkProtectionView {
  status: 'ENROLLED' | 'NOT_ENROLLED';
  enrolled_time: string | null;
}

export interface CardView {
  card_id: string;
  card_status: CardStatus;
  card_bin: string;
  card_scheme: string;
  /** First 6 + ****** + last 4 (architecture rule 7). */
  card_number: string;
  card_name: string;
  card_currency: CardCurrency;
  card_product_id: string;
  form_factor: CardType;
  mode_type: CardMode;
  card_limit: number;
  available_balance: number;
  consumed_amount: number;
  cardholder: { cardholder_id: string; first_name: string; last_name: string; email: string } | null;
  spending_controls: SpendingControlView[];
  risk_controls: RiskControlsView;
  metadata: Record<string, string>;
  update_reason: string;
  usage_type: UsageType;
  auto_cancel_trigger: AutoCancelTrigger | null;
  expiry_at: string | null;
  no_pin_payment_amount: number;
  card_art_id: string | null;
  network_protection: NetworkProtectionView;
  create_time: string;
}

/** Create, update and assign answer this (wire-compat §11.4 CreateCardResponse). */
export interface CardWriteView {
  card_id: string;
  card_order_id: string;
  create_time: string;
  card_status: CardStatus;
  order_status: CardOrderStatus;
  cardholder_status?: CardholderStatus;
  message?: string;
}

export interface CardStatusUpdateView {
  card_id: string;
  card_order_id: string;
  order_status: CardOrderStatus;
  update_reason: string;
}

export interface CardOrderView {
  card_id: string;
  card_order_id: string;
  order_type: CardOrderType;
  amount: number;
  card_currency: CardCurrency;
  create_time: string;
  update_time: string;
  complete_time?: string;
  order_status: CardOrderStatus;
}

export interface ActivationView {
  request_status: 'SUCCESS';
}

/** What issuing answers for `/secure`: the number and CVV sealed for the gateway, which opens them. */
export interface SealedSecureDetails {
  sealed: string;
  expire_date: string;
}
/** Data of card.create.* and card.update.* (spec 6: risk_controls and card_available_balance included). */
export interface CardEventData extends CardView {
  card_order_id: string;
  order_status: CardOrderStatus;
  card_available_balance: number;
}

/** Data of card.recharge.*, card.withdraw.* and card.elevate_limit.*. */
export interface CardOrderEventData extends CardOrderView {
  card_available_balance: number;
  /** Elevations: until when the elevated per-transaction limit applies. */
  effective_until?: string;
}

/** Data of card.status.update.* (spec 6: update_reason, available_balance, currency). */
export interface CardStatusEventData {
  card_id: string;
  card_order_id: string;
  card_status: CardStatus;
  order_status: CardOrderStatus;
  update_reason: string;
  available_balance: number;
  card_available_balance: number;
  currency: CardCurrency;
}

/** Data of card.risk_control.network_protection.*. */
export interface NetworkProtectionEventData {
  card_id: string;
  card_number: string;
  network_protection: NetworkProtectionView;
}

export interface DeletedCardholderView {
  cardholder_id: string;
  deleted: true;
}

/** What the merchant gets (wire-compat §11.8). */
export interface SecureDetailsView {
  cvv: string;
  expire_date: string;
  card_number: string;
}

export interface PanTokenView {
  token: string;
  expires_in: number;
  expires_at: string;
}

export interface CardArtView {
  card_art_id: string;
  name: string;
  is_default: boolean;
  create_time: string;
}

export interface BulkCreateView {
  bulk_order_id: string;
  card_product_id: string;
  card_currency: CardCurrency;
  quantity: number;
  order_status: CardOrderStatus;
  /** Masked numbers of the new unassigned virtual cards (the full numbers come in the bulk card file). */
  card_numbers: string[];
}

export interface PinResetView {
  card_id: string;
  request_status: 'SUCCESS';
}

// ---------------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------------

/** The issuing command types on the bus (what the bus reference and the operators' tools name). */
export const IssuingCommands = {
  listProducts: 'issuing.products.list',
  createCardholder: 'issuing.cardholders.create',
  listCardholders: 'issuing.cardholders.list',
  retrieveCardholder: 'issuing.cardholders.retrieve',
  updateCardholder: 'issuing.cardholders.update',
  deleteCardholder: 'issuing.cardholders.delete',
  createCard: 'issuing.cards.create',
  listCards: 'issuing.cards.list',
  retrieveCard: 'issuing.cards.retrieve',
  updateCard: 'issuing.cards.update',
  updateCardStatus: 'issuing.cards.update_status',
  activateCard: 'issuing.cards.activate',
  assignCard: 'issuing.cards.assign',
  resetPin: 'issuing.cards.reset_pin',
  elevateLimit: 'issuing.cards.elevate_limit',
  enrolNetworkProtection: 'issuing.cards.network_protection.enrol',
  removeNetworkProtection: 'issuing.cards.network_protection.remove',
  bulkCreateCards: 'issuing.cards.bulk_create',
  retrieveSecureDetails: 'issuing.cards.secure',
  createPanToken: 'issuing.cards.pan_token',
  rechargeCard: 'issuing.cards.recharge',
  withdrawCard: 'issuing.cards.withdraw',
  retrieveCardOrder: 'issuing.card_orders.retrieve',
  listCardArts: 'issuing.card_arts.list',
  setDefaultCardArt: 'issuing.card_arts.set_default',
} as const;

export const IssuingCommand = {
  listProducts: defineCommand(IssuingCommands.listProducts, {
    payload: ListProductsPayload,
    result: returns<Page<CardProductView>>(),
    mutates: false,
  }),

  createCardholder: defineCommand(IssuingCommands.createCardholder, {
    payload: CreateCardholderPayload,
    result: returns<CardholderWriteView>(),
    mutates: true,
  }),
  listCardholders: defineCommand(IssuingCommands.listCardholders, {
    payload: ListCardholdersPayload,
    result: returns<Page<CardholderView>>(),
    mutates: false,
  }),
  retrieveCardholder: defineCommand(IssuingCommands.retrieveCardholder, {
    payload: CardholderRef,
    result: returns<CardholderView>(),
    mutates: false,
  }),
  updateCardholder: defineCommand(IssuingCommands.updateCardholder, {
    payload: UpdateCardholderPayload,
    result: returns<CardholderWriteView>(),
    mutates: true,
  }),
  deleteCardholder: defineCommand(IssuingCommands.deleteCardholder, {
    payload: CardholderRef,
    result: returns<DeletedCardholderView>(),
    mutates: true,
  }),

  createCard: defineCommand(IssuingCommands.createCard, {
    payload: CreateCardPayload,
    result: returns<CardWriteView>(),
    mutates: true,
  }),
  listCards: defineCommand(IssuingCommands.listCards, {
    payload: ListCardsPayload,
    result: returns<Page<CardView>>(),
    mutates: false,
  }),
  retrieveCard: defineCommand(IssuingCommands.retrieveCard, { payload: CardRef, result: returns<CardView>(), mutates: false }),
  updateCard: defineCommand(IssuingCommands.updateCard, {
    payload: UpdateCardPayload,
    result: returns<CardWriteView>(),
    mutates: true,
  }),
  updateCardStatus: defineCommand(IssuingCommands.updateCardStatus, {
    payload: UpdateCardStatusPayload,
    result: returns<CardStatusUpdateView>(),
    mutates: true,
  }),
  activateCard: defineCommand(IssuingCommands.activateCard, {
    payload: ActivateCardPayload,
    result: returns<ActivationView>(),
    mutates: true,
  }),
  assignCard: defineCommand(IssuingCommands.assignCard, {
    payload: AssignCardPayload,
    result: returns<CardWriteView>(),
    mutates: true,
  }),
  resetPin: defineCommand(IssuingCommands.resetPin, {
    payload: ResetPinPayload,
    result: returns<PinResetView>(),
    mutates: true,
  }),
  elevateLimit: defineCommand(IssuingCommands.elevateLimit, {
    payload: ElevateLimitPayload,
    result: returns<CardOrderView>(),
    mutates: true,
  }),
  enrolNetworkProtection: defineCommand(IssuingCommands.enrolNetworkProtection, {
    payload: CardRef,
    result: returns<CardView>(),
    mutates: true,
  }),
  removeNetworkProtection: defineCommand(IssuingCommands.removeNetworkProtection, {
    payload: CardRef,
    result: returns<CardView>(),
    mutates: true,
  }),
  bulkCreateCards: defineCommand(IssuingCommands.bulkCreateCards, {
    payload: BulkCreateCardsPayload,
    result: returns<BulkCreateView>(),
    mutates: true,
  }),
  retrieveSecureDetails: defineCommand(IssuingCommands.retrieveSecureDetails, {
    payload: CardRef,
    result: returns<SealedSecureDetails>(),
    mutates: false,
  }),
  createPanToken: defineCommand(IssuingCommands.createPanToken, {
    payload: CardRef,
    result: returns<PanTokenView>(),
    mutates: true,
  }),

  rechargeCard: defineCommand(IssuingCommands.rechargeCard, {
    payload: CardAmountPayload,
    result: returns<CardOrderView>(),
    mutates: true,
  }),
  withdrawCard: defineCommand(IssuingCommands.withdrawCard, {
    payload: CardAmountPayload,
    result: returns<CardOrderView>(),
    mutates: true,
  }),
  retrieveCardOrder: defineCommand(IssuingCommands.retrieveCardOrder, {
    payload: CardOrderRef,
    result: returns<CardOrderView>(),
    mutates: false,
  }),

  listCardArts: defineCommand(IssuingCommands.listCardArts, {
    payload: ListCardArtsPayload,
    result: returns<Page<CardArtView>>(),
    mutates: false,
  }),
  setDefaultCardArt: defineCommand(IssuingCommands.setDefaultCardArt, {
    payload: CardArtRef,
    result: returns<CardArtView>(),
    mutates: true,
  }),
};

// ---------------------------------------------------------------------------------------------------
// Events (spec 6; category ISSUING)
// ---------------------------------------------------------------------------------------------------

export const IssuingEvents = {
  cardCreateSucceeded: 'card.create.succeeded',
  cardCreateFailed: 'card.create.failed',
  cardUpdateSucceeded: 'card.update.succeeded',
  cardUpdateFailed: 'card.update.failed',
  cardRechargeSucceeded: 'card.recharge.succeeded',
  cardRechargeFailed: 'card.recharge.failed',
  cardWithdrawSucceeded: 'card.withdraw.succeeded',
  cardWithdrawFailed: 'card.withdraw.failed',
  cardStatusUpdateSucceeded: 'card.status.update.succeeded',
  cardStatusUpdateFailed: 'card.status.update.failed',
  cardElevateLimitSucceeded: 'card.elevate_limit.succeeded',
  cardElevateLimitFailed: 'card.elevate_limit.failed',
  networkProtectionEnrolled: 'card.risk_control.network_protection.enrolled',
  networkProtectionRemoved: 'card.risk_control.network_protection.removed',
  cardholderKycStatusChanged: 'cardholder.kyc.status_changed',
  cardholderUpdated: 'cardholder.updated',
} as const;
export type IssuingEventName = (typeof IssuingEvents)[keyof typeof IssuingEvents];

// ---------------------------------------------------------------------------------------------------
// The sandbox (decisions §6; docs/issuing.md): documented triggers and the seeded pool cards
// ---------------------------------------------------------------------------------------------------

/** A cardholder whose email contains this ends its KYC review FAILED; every other one SUCCESS. */
export const SANDBOX_KYC_FAIL_MARKER = 'kyc_fail';
/** An order amount (or card_limit, or elevated limit) whose cents are 13 makes its card order FAILED. */
export const SANDBOX_FAILING_CENTS = 13n;

/** BIN of the sandbox pool (the physical SHARE product of every account). */
export const SANDBOX_POOL_BIN = '491090';
export const SANDBOX_POOL_SIZE = 10;

/**
 * The physical pool cards the sandbox seed creates for a sandbox account (slot 1 master, 2 and 3 the
 * sub-accounts): `491090` + slot + 8-digit sequence + check digit, 16 digits. The activation code printed on the
 * sandbox card carrier is the six digits after the BIN. Public sandbox data, like the test card numbers.
 */
export function sandboxPoolCard(slot: number, sequence: number): { card_number: string; activation_code: string } {
  const body = `${SANDBOX_POOL_BIN}${slot}${String(sequence).padStart(8, '0')}`;
  const number = `${body}${luhnCheckDigit(body)}`;
  return { card_number: number, activation_code: number.slice(6, 12) };
}

export function luhnCheckDigit(body: string): number {
  let sum = 0;
  for (let index = 0; index < body.length; index += 1) {
    let digit = body.charCodeAt(body.length - 1 - index) - 48;
    if (index % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}
