/**
 * Why: a bare bigint forgets its currency, and adding JPY to USD minor units is a silent, expensive bug.
 * Money pairs the two; every operation refuses mixed currencies (CurrencyMismatchError) and results outside
 * ±MAX_AMOUNT_MINOR (MoneyRangeError). Values may be negative (balances, ledger postings); wire parsing never
 * produces a negative. Plain frozen objects rather than a class, so they cross structured clone and test
 * equality cleanly; note JSON.stringify cannot serialise bigint, so convert with formatMoney on the way out.
 */
import { formatAmount, parseAmount, assertSupportedCurrency } from './amount';
import { CurrencyCode } from './currencies';
import { CurrencyMismatchError } from './errors';
import { assertSafeMinorUnits } from './limits';

export interface Money {
  readonly amountMinor: bigint;
  readonly currency: CurrencyCode;
}

export function money(amountMinor: bigint, currency: string): Money {
  if (typeof amountMinor !== 'bigint')
    throw new TypeError(`minor units must be a bigint, got ${typeof amountMinor}`);
  return Object.freeze({
    amountMinor: assertSafeMinorUnits(amountMinor),
    currency: assertSupportedCurrency(currency),
  });
}

export function zeroMoney(currency: string): Money {
  return money(0n, currency);
}

/** Wire decimal string → Money, with parseAmount's rules. */
export function moneyFromDecimal(decimal: string, currency: string): Money {
  return money(parseAmount(decimal, currency), currency);
}

/** Money → canonical wire decimal string. */
export function formatMoney(value: Money): string {
  return formatAmount(value.amountMinor, value.currency);
}

export function addMoney(a: Money, b: Money): Money {
  sameCurrency('add', a, b);
  return money(a.amountMinor + b.amountMinor, a.currency);
}

export function subtractMoney(a: Money, b: Money): Money {
  sameCurrency('subtract', a, b);
  return money(a.amountMinor - b.amountMinor, a.currency);
}

export function negateMoney(a: Money): Money {
  return money(-a.amountMinor, a.currency);
}

/** Sum in one currency; `currency` is required so an empty list still has one. */
export function sumMoney(values: readonly Money[], currency: string): Money {
  return values.reduce((total, value) => addMoney(total, value), zeroMoney(currency));
}

/** -1, 0 or 1, usable as an Array.prototype.sort comparator within one currency. */
export function compareMoney(a: Money, b: Money): -1 | 0 | 1 {
  sameCurrency('compare', a, b);
  if (a.amountMinor === b.amountMinor) return 0;
  return a.amountMinor < b.amountMinor ? -1 : 1;
}

/** Equality across currencies is simply false, not an error: "is this the same amount?" has an answer. */
export function moneyEquals(a: Money, b: Money): boolean {
  return a.currency === b.currency && a.amountMinor === b.amountMinor;
}

export function isZeroMoney(value: Money): boolean {
  return value.amountMinor === 0n;
}

export function isPositiveMoney(value: Money): boolean {
  return value.amountMinor > 0n;
}

function sameCurrency(operation: string, a: Money, b: Money): void {
  if (a.currency !== b.currency) throw new CurrencyMismatchError(operation, a.currency, b.currency);
}
