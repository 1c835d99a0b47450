/**
 * Why: callers turn money errors into 400 responses, so each failure carries a stable `code` and a `reason`
 * written for the API client ("at most 2 decimal places for USD"), separate from programming errors such as
 * mixing currencies or overflowing the storable range.
 */

export type MoneyFormatErrorCode =
  'unsupported_currency' | 'invalid_format' | 'too_many_decimals' | 'out_of_range' | 'not_positive';

/** Longer inputs are cut in messages: a 1 MiB body must not become a 1 MiB log line. */
const MAX_ECHOED_INPUT = 40;

function echo(input: string): string {
  return input.length > MAX_ECHOED_INPUT ? `${input.slice(0, MAX_ECHOED_INPUT)}…` : input;
}

/** An amount or currency from outside was rejected. `reason` is safe to show to the API client. */
export class MoneyFormatError extends Error {
  override readonly name = 'MoneyFormatError';
  readonly input: string | undefined;
  readonly currency: string | undefined;

  constructor(
    readonly code: MoneyFormatErrorCode,
    readonly reason: string,
    details: { input?: string; currency?: string } = {},
  ) {
    super(details.input === undefined ? reason : `invalid amount "${echo(details.input)}": ${reason}`);
    this.input = details.input === undefined ? undefined : echo(details.input);
    this.currency = details.currency;
  }
}

/** Two amounts in different currencies met in one operation: a bug in the caller, never coerced. */
export class CurrencyMismatchError extends Error {
  override readonly name = 'CurrencyMismatchError';

  constructor(
    readonly operation: string,
    readonly left: string,
    readonly right: string,
  ) {
    super(`cannot ${operation} ${left} and ${right}: currencies differ`);
  }
}

/** A value in minor units is outside ±MAX_AMOUNT_MINOR, so it may not be stored in a Postgres bigint column. */
export class MoneyRangeError extends RangeError {
  override readonly name = 'MoneyRangeError';

  constructor(
    readonly value: bigint,
    readonly limit: bigint,
  ) {
    super(`${value} minor units is outside the supported range of ±${limit}`);
  }
}
