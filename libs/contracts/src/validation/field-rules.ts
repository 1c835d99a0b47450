import 'reflect-metadata';
import { Type } from 'class-transformer';
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

function all(...rules: Rule[]): Rule {
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

/** A currency we hold money in (ISO 4217 plus CNH and XUSD, upper case; @paygrid/money's table). */
export const CurrencyCode = (options: { optional?: boolean } = {}): Rule =>
  optionalIf(
    options.optional,
    ValidateBy({
      name: 'isSupportedCurrency',
      validator: {
        validate: (value: unknown) => isSupportedCurrency(value),
        defaultMessage: () => '$property must be a supported ISO 4217 currency code (upper case, e.g. USD)',
      },
    }),
  );

/**
 * An acquiring or payout amount (decisions §5): a decimal string > 0 with at most the minor-unit digits of
 * the currency named by the sibling field `currencyField`. While that currency is itself invalid this rule
 * stays silent: the currency field reports the problem, once.
 */
export const AmountIn = (currencyField: string): Rule =>
  ValidateBy({
    name: 'isAmountInCurrency',
    validator: {
      validate: (value: unknown, args) => amountProblem(value, (args?.object as Record<string, unknown>)[currencyField]) === undefined,
      defaultMessage: (args) => `$property ${amountProblem(args?.value, (args?.object as Record<string, unknown>)[currencyField])}`,
    },
  });

function amountProblem(value: unknown, currency: unknown): string | undefined {
  const format = 'must be a decimal string such as "10.50" (digits, an optional point and decimals)';
  if (typeof value !== 'string') return format;
  if (!isSupportedCurrency(currency)) return undefined;
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
