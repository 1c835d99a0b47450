/**
 * Why: acquiring and payout amounts are decimal strings on the wire and bigint minor units in storage
 * (architecture rule 6). This module is the only crossing between the two.
 *
 * Accepted input (decisions, documented for the API reference):
 * - digits, optionally '.' followed by 1..exponent digits: "10", "10.5" and "10.50" are all 1050n for USD;
 *   trailing zeros inside the exponent are fine, more digits than the exponent are refused, never rounded;
 * - no sign, exponent notation, spaces, thousands separators, or leading '+';
 * - '.5' and '5.' are refused (a digit is required on each side of the point);
 * - leading zeros are refused ("007", "00.5"): a canonical form means one spelling per amount, and padded
 *   input is usually a client bug worth surfacing; "0" and "0.50" are fine;
 * - zero passes parseAmount; parsePositiveAmount is the "> 0" rule the spec applies to amounts;
 * - at most MAX_AMOUNT_MINOR minor units.
 * Output of formatAmount always has exactly the exponent's fraction digits ("10.50", "5", "0.001").
 */
import { CurrencyCode, CurrencyExponent, CURRENCY_EXPONENTS, isSupportedCurrency } from './currencies';
import { decimalToScaled, scaledToDecimal } from './decimal-digits';
import { MoneyFormatError } from './errors';
import { MAX_AMOUNT_MINOR } from './limits';

/** The currency's exponent; throws MoneyFormatError (code unsupported_currency) for unknown codes. */
export function currencyExponent(code: string): CurrencyExponent {
  return CURRENCY_EXPONENTS[assertSupportedCurrency(code)];
}

/** Narrows a wire currency to CurrencyCode or throws MoneyFormatError (code unsupported_currency). */
export function assertSupportedCurrency(code: string): CurrencyCode {
  if (!isSupportedCurrency(code)) {
    throw new MoneyFormatError('unsupported_currency', `unsupported currency ${JSON.stringify(code)}`, {
      currency: typeof code === 'string' ? code : undefined,
    });
  }
  return code;
}

/** Decimal string → minor units. Zero is accepted; see parsePositiveAmount for the "> 0" rule. */
export function parseAmount(decimal: string, currency: string): bigint {
  const code = assertSupportedCurrency(currency);
  const exponent = CURRENCY_EXPONENTS[code];
  if (typeof decimal !== 'string') {
    // Reachable from untyped JSON; a JSON number here already lost exactness, so it is refused, not converted.
    throw new MoneyFormatError('invalid_format', `must be a decimal string, not a ${typeof decimal}`, {
      input: String(decimal),
      currency: code,
    });
  }
  const result = decimalToScaled(decimal, exponent);
  if (!result.ok) {
    if (result.problem === 'format') {
      throw new MoneyFormatError('invalid_format', result.detail, { input: decimal, currency: code });
    }
    if (result.problem === 'decimals') {
      throw new MoneyFormatError('too_many_decimals', decimalsRule(code, exponent), {
        input: decimal,
        currency: code,
      });
    }
    throw outOfRange(decimal, code, exponent);
  }
  if (result.scaled > MAX_AMOUNT_MINOR) throw outOfRange(decimal, code, exponent);
  return result.scaled;
}

/** parseAmount plus the spec's "> 0" rule for acquiring and payout amounts. */
export function parsePositiveAmount(decimal: string, currency: string): bigint {
  const minor = parseAmount(decimal, currency);
  if (minor === 0n) {
    throw new MoneyFormatError('not_positive', 'must be greater than 0', { input: decimal, currency });
  }
  return minor;
}

/**
 * Minor units → canonical decimal string with exactly the exponent's digits (1050n USD → "10.50",
 * 5n JPY → "5", 1n KWD → "0.001"). Negative values (balances) get a leading '-', which parseAmount never accepts.
 */
export function formatAmount(minor: bigint, currency: string): string {
  if (typeof minor !== 'bigint') throw new TypeError(`minor units must be a bigint, got ${typeof minor}`);
  return scaledToDecimal(minor, currencyExponent(currency));
}

function decimalsRule(code: CurrencyCode, exponent: CurrencyExponent): string {
  return exponent === 0
    ? `no decimal places allowed for ${code}`
    : `at most ${exponent} decimal places for ${code}`;
}

function outOfRange(input: string, code: CurrencyCode, exponent: CurrencyExponent): MoneyFormatError {
  return new MoneyFormatError(
    'out_of_range',
    `at most ${scaledToDecimal(MAX_AMOUNT_MINOR, exponent)} ${code}`,
    {
      input,
      currency: code,
    },
  );
}
