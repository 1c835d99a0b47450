/**
 * Why: Postgres bigint tops out near 9.2e18, and ledgers sum many amounts, so single amounts are capped far
 * below that. 10^15 minor units (10 trillion USD, 1 quadrillion JPY) also keeps every amount at 15 significant
 * digits or fewer, which is what lets issuing amounts survive a trip through a JSON number (see major-number.ts).
 */
import { MoneyRangeError } from './errors';

/** Largest magnitude, in minor units, of any amount or balance this platform stores. Inclusive. */
export const MAX_AMOUNT_MINOR = 10n ** 15n;

export function isSafeMinorUnits(value: bigint): boolean {
  return value <= MAX_AMOUNT_MINOR && value >= -MAX_AMOUNT_MINOR;
}

/** Returns `value` unchanged, or throws MoneyRangeError when it may not be stored. */
export function assertSafeMinorUnits(value: bigint): bigint {
  if (!isSafeMinorUnits(value)) throw new MoneyRangeError(value, MAX_AMOUNT_MINOR);
  return value;
}

const INTEGER_STRING = /^-?(0|[1-9][0-9]*)$/;

/**
 * Reads a bigint column back. pg and TypeORM return int8 as a string (a JS number would lose digits above 2^53),
 * so this accepts that string, a bigint, or a safe-integer number, and range-checks the result.
 * Throws TypeError on anything that is not an integer: that is corrupt data, not client input.
 */
export function minorUnitsFromDb(value: string | bigint | number): bigint {
  if (typeof value === 'bigint') return assertSafeMinorUnits(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TypeError(`minor units must be a safe integer, got ${value}`);
    return assertSafeMinorUnits(BigInt(value));
  }
  if (typeof value !== 'string' || !INTEGER_STRING.test(value) || value.length > 20) {
    throw new TypeError(`minor units must be an integer string, got ${JSON.stringify(value)}`);
  }
  return assertSafeMinorUnits(BigInt(value));
}
