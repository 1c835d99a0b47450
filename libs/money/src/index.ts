/**
 * @paygrid/money: exact money. Decimal strings on the wire, bigint minor units in storage and in memory,
 * never a float (architecture rule 6).
 */
export { CURRENCY_EXPONENTS, SUPPORTED_CURRENCIES, isSupportedCurrency } from './currencies';
export type { CurrencyCode, CurrencyExponent } from './currencies';
export {
  assertSupportedCurrency,
  currencyExponent,
  formatAmount,
  parseAmount,
  parsePositiveAmount,
} from './amount';
export { parseMajorNumber, toMajorNumber } from './major-number';
export {
  addMoney,
  compareMoney,
  formatMoney,
  isPositiveMoney,
  isZeroMoney,
  money,
  moneyEquals,
  moneyFromDecimal,
  negateMoney,
  subtractMoney,
  sumMoney,
  zeroMoney,
} from './money';
export type { Money } from './money';
export { MAX_AMOUNT_MINOR, assertSafeMinorUnits, isSafeMinorUnits, minorUnitsFromDb } from './limits';
export { CurrencyMismatchError, MoneyFormatError, MoneyRangeError } from './errors';
export type { MoneyFormatErrorCode } from './errors';
