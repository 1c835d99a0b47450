import 'reflect-metadata';
import { Type } from 'class-transformer';
import { isUuid } from '@paygrid/ids';
import { isSupportedCurrency, MoneyFormatError, parsePositiveAmount } from '@paygrid/money';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsDefined,
  IsEmail,
  IsISO31661Alpha2,
  IsISO8601,
  IsISO4217CurrencyCode,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';

/**
 * The field rules the request DTOs repeat, each one decorator with one wording, so every message
 * reads the same way wherever the field appears. Framework-free (see validation.ts).
 */
type Rule = PropertyDecorator;

export function all(...rules: Rule[]): Rule {
  return (target, key) => rules.forEach((rule) => rule(target, key));
}

const optionalIf = (optional: boolean | undefined, ...rules: Rule[]): Rule =>
  optional ? all(IsOptional(), ...rules) : all(...rules);

/** Long enough for legal names and street lines in any script; short enough to stop abuse. */
export const TEXT_MAX = 200;
/** Documents arrive as ids or encoded files: bounded only by the gateway's 1 MiB body limit. */
export const DOCUMENTS_MAX = 20;

export const Text = (options: { optional?: boolean; max?: number } = {}): Rule =>
  optionalIf(options.optional, IsString(), IsNotEmpty(), MaxLength(options.max ?? TEXT_MAX));

/** Spec 8: account email max 100 characters. */
export const Email = (options: { optional?: boolean } = {}): Rule =>
  optionalIf(options.optional, IsEmail(), MaxLength(100));

/** Digits with an optional leading + and the usual separators (the number is stored as given). */
export const Phone = (options: { optional?: boolean } = {}): Rule =>
  optionalIf(
    options.optional,
    IsString(),
    Matches(/^\+?[0-9][0-9 ()-]{4,24}$/, { message: '$property must be a phone number (digits, optional leading +)' }),
  );

export const Country = (options: { optional?: boolean } = {}): Rule =>
  optionalIf(options.optional, IsISO31661Alpha2({ message: '$property must be an ISO 3166-1 alpha-2 country code' }));

/**
 * A uuid of any version in canonical form (libs/ids' `isUuid`): the rule wherever an id is only looked up,
 * so an id that names nothing is answered as not found, whatever its version, and gateway and services
 * agree on what is well-formed (x-on-behalf-of).
 */
export const Uuid = (options: { optional?: boolean } = {}): Rule =>
  optionalIf(
    options.optional,
    ValidateBy({
      name: 'isUuid',
      validator: { validate: (value: unknown) => isUuid(value), defaultMessage: () => '$property must be a uuid' },
    }),
  );

/** A calendar date `YYYY-MM-DD` that exists (no 2023-02-30). */
export const DateOnly = (options: { optional?: boolean } = {}): Rule =>
  optionalIf(
    options.optional,
    ValidateBy({
      name: 'isDateOnly',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isCalendarDate(value),
        defaultMessage: () => '$property must be a date as YYYY-MM-DD',
      },
    }),
  );

/** A list of document references (file ids or encoded files): non-empty strings. */
export const DocumentList = (options: { optional?: boolean } = {}): Rule =>
  optionalIf(
    options.optional,
    IsArray(),
    ...(options.optional ? [] : [ArrayNotEmpty()]),
    ArrayMaxSize(DOCUMENTS_MAX),
    IsString({ each: true }),
    IsNotEmpty({ each: true }),
  );

/** Optional lists of short values. */
export const TextList = (): Rule => all(IsOptional(), IsArray(), IsString({ each: true }), MaxLength(TEXT_MAX, { each: true }));
export const CurrencyList = (): Rule => all(IsOptional(), IsArray(), IsISO4217CurrencyCode({ each: true }));
export const CountryList = (): Rule =>
  all(
    IsOptional(),
    IsArray(),
    IsISO31661Alpha2({ each: true, message: 'each value in $property must be an ISO 3166-1 alpha-2 country code' }),
  );

/** A nested object validated by `dto`; arrays and scalars are refused. */
export const Nested = (dto: () => new () => object, options: { optional?: boolean } = {}): Rule =>
  optionalIf(options.optional, IsObject(), ValidateNested(), Type(dto));

/** A list of nested objects, each validated by `dto`. */
export const NestedList = (dto: () => new () => object, options: { optional?: boolean; max?: number } = {}): Rule =>
  optionalIf(options.optional, IsArray(), ArrayMaxSize(options.max ?? DOCUMENTS_MAX), ValidateNested({ each: true }), Type(dto));

/** Required (and then validated by the rules below it) only when `condition` holds or a value is given. */
export const RequiredWhen = (
  condition: (object: Record<string, unknown>) => boolean,
  explanation: string,
  options?: ValidationOptions,
): Rule =>
  all(
    ValidateIf((object: Record<string, unknown>, value: unknown) => value !== undefined || condition(object)),
    IsDefined({ message: `$property is required ${explanation}`, ...options }),
  );

function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

// ---------------------------------------------------------------------------------------------------
// Money, metadata, ids and times as every money-moving API takes them (decisions §5, spec 8)
// ---------------------------------------------------------------------------------------------------

const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;
const DECIMAL_RULE = 'must be a decimal string such as "10.50"';
const CURRENCY_FORMAT = /^[A-Z]{3}$/;
/** Acquiring and payouts take three-letter codes only; libs/money's four-letter XUSD is issuing's. */
const isAcceptedCurrency = (value: unknown): value is string => isSupportedCurrency(value) && CURRENCY_FORMAT.test(value);

/**
 * Why `value` is not a positive amount in `currency` (at most the currency's minor-unit digits), or
 * undefined. For services that learn the currency only after a read (a capture of a stored intent).
 */
export function amountProblem(value: unknown, currency: string): string | undefined {
  if (typeof value !== 'string') return DECIMAL_RULE;
  try {
    parsePositiveAmount(value, currency);
  } catch (error) {
    if (error instanceof MoneyFormatError) return error.reason;
    throw error;
  }
  return DECIMAL.test(value) ? undefined : DECIMAL_RULE;
}

/**
 * A decimal amount string. When `currencyField` names a sibling that holds a supported currency, the
 * currency's exponent and the > 0 rule apply too ("no decimal places allowed for JPY"); otherwise only
 * the decimal form, and the service checks the rest once it knows the currency.
 */
export const Amount = (options: { optional?: boolean; currencyField?: string } = {}): Rule => {
  const problem = (value: unknown, object: object): string | undefined => {
    const currency = options.currencyField ? (object as Record<string, unknown>)[options.currencyField] : undefined;
    if (isAcceptedCurrency(currency)) return amountProblem(value, currency);
    return typeof value === 'string' && DECIMAL.test(value) ? undefined : DECIMAL_RULE;
  };
  return optionalIf(
    options.optional,
    ValidateBy({
      name: 'isAmount',
      validator: {
        validate: (value, args) => problem(value, args?.object ?? {}) === undefined,
        defaultMessage: (args) => `$property ${args ? problem(args.value, args.object) : DECIMAL_RULE}`,
      },
    }),
  );
};

/**
 * A three-letter ISO 4217 code that libs/money supports: what acquiring and payouts take (spec 2.1).
 * libs/money also knows the four-letter XUSD, which only issuing's card orders accept (spec 2.8, their
 * own enum), so the length is checked here and not left to the currency table.
 */
export const CurrencyCode = (options: { optional?: boolean } = {}): Rule =>
  optionalIf(
    options.optional,
    ValidateBy({
      name: 'isSupportedCurrency',
      validator: {
        validate: (value) => isAcceptedCurrency(value),
        defaultMessage: (args) =>
          typeof args?.value === 'string' && CURRENCY_FORMAT.test(args.value)
            ? '$property is not a supported currency'
            : '$property must be a three-letter currency code',
      },
    }),
  );

/** Spec 8: metadata is at most 512 bytes, measured as the JSON the client sent (UTF-8). */
export const METADATA_MAX_BYTES = 512;

export function metadataBytes(metadata: unknown): number {
  return Buffer.byteLength(JSON.stringify(metadata ?? {}), 'utf8');
}

const isStringMap = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string');

/** Optional `metadata`: a flat string → string map (what the SDKs type it as) of at most 512 bytes. */
export const Metadata = (): Rule =>
  all(
    IsOptional(),
    ValidateBy({
      name: 'isMetadata',
      validator: {
        validate: (value) => isStringMap(value) && metadataBytes(value) <= METADATA_MAX_BYTES,
        defaultMessage: (args) =>
          isStringMap(args?.value)
            ? `$property must be at most ${METADATA_MAX_BYTES} bytes as JSON`
            : '$property must be an object of string values',
      },
    }),
  );

/** Our ids are `<prefix>_<26 characters>`, at most 36 (spec 8); anything else cannot exist. */
export const ResourceId = (options: { optional?: boolean } = {}): Rule =>
  optionalIf(options.optional, IsString(), MaxLength(36), Matches(/^[A-Za-z0-9_-]+$/, { message: '$property must be an id' }));

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A time filter: an ISO 8601 date or timestamp. */
export const IsoTime = (options: { optional?: boolean } = {}): Rule =>
  optionalIf(options.optional, Matches(ISO_TIME, { message: '$property must be an ISO 8601 timestamp' }));

/**
 * An acquiring or payout amount (decisions §5): a decimal string > 0 with at most the minor-unit digits of
 * the currency named by the sibling field `currencyField`. While that currency is itself invalid this rule
 * stays silent: the currency field reports the problem, once.
 */
export const AmountIn = (currencyField: string): Rule =>
  ValidateBy({
    name: 'isAmountInCurrency',
    validator: {
      validate: (value: unknown, args) => amountInCurrencyProblem(value, (args?.object as Record<string, unknown>)[currencyField]) === undefined,
      defaultMessage: (args) => `$property ${amountInCurrencyProblem(args?.value, (args?.object as Record<string, unknown>)[currencyField])}`,
    },
  });

function amountInCurrencyProblem(value: unknown, currency: unknown): string | undefined {
  const format = 'must be a decimal string such as "10.50" (digits, an optional point and decimals)';
  if (typeof value !== 'string') return format;
  if (!isAcceptedCurrency(currency)) return undefined;
  try {
    parsePositiveAmount(value, currency);
    return undefined;
  } catch (error) {
    if (!(error instanceof MoneyFormatError)) throw error;
    // `reason` never quotes the input (the error's message does).
    const reasons: Record<string, string> = {
      not_positive: 'must be greater than 0',
      too_many_decimals: `has too many decimal places: ${error.reason}`,
      out_of_range: `is too large: ${error.reason}`,
    };
    return reasons[error.code] ?? format;
  }
}

/** An ISO 8601 time with a date (`2026-01-31`, `2026-01-31T10:00:00Z`, `...+08:00`). */
export const Timestamp = (options: { optional?: boolean } = {}): Rule =>
  optionalIf(options.optional, IsISO8601({ strict: true }, { message: '$property must be an ISO 8601 timestamp' }));
