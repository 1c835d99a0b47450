/**
 * Why: issuing amounts (recharge, withdraw, card_limit, transfers) arrive as JSON numbers in major units with
 * at most two decimals (decisions §5). A JSON number is already a binary float, so multiplying it (1.005 * 100,
 * 4.35 * 100 = 434.99999999999994) would round silently. Instead the number is turned into its shortest decimal
 * string (what String(value) gives, the digits a client most plausibly typed) and parsed as text. A value
 * whose shortest form has too many decimals (1.005, 0.1 + 0.2) is refused, never rounded.
 *
 * This is exact for every amount within MAX_AMOUNT_MINOR: that bounds amounts to 15 significant digits, and a
 * double reproduces any 15-digit decimal through its shortest representation.
 */
import { decimalToScaled, scaledToDecimal } from './decimal-digits';
import { MoneyFormatError } from './errors';
import { MAX_AMOUNT_MINOR } from './limits';

const MAX_DECIMALS_SUPPORTED = 6;

/**
 * JSON number in major units → integer in units of 10^-maxDecimals (minor units when maxDecimals equals the
 * currency's exponent, as it does for the issuing currencies USD, SGD, XUSD). Must be > 0 unless
 * `allowZero` (card_limit accepts 0).
 */
export function parseMajorNumber(
  value: number,
  maxDecimals = 2,
  options: { allowZero?: boolean } = {},
): bigint {
  assertDecimals(maxDecimals);
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new MoneyFormatError('invalid_format', 'must be a finite number', { input: String(value) });
  }
  const text = shortestDecimal(value);
  if (value < 0) throw new MoneyFormatError('not_positive', 'must not be negative', { input: text });
  const result = decimalToScaled(text, maxDecimals);
  if (!result.ok) {
    if (result.problem === 'decimals') {
      const rule = maxDecimals === 0 ? 'must be a whole number' : `at most ${maxDecimals} decimal places`;
      throw new MoneyFormatError('too_many_decimals', rule, { input: text });
    }
    throw outOfRange(text, maxDecimals);
  }
  if (result.scaled > MAX_AMOUNT_MINOR) throw outOfRange(text, maxDecimals);
  if (result.scaled === 0n && options.allowZero !== true) {
    throw new MoneyFormatError('not_positive', 'must be greater than 0', { input: text });
  }
  return result.scaled;
}

/**
 * Integer in units of 10^-decimals → JSON number in major units (1050n → 10.5). The nearest double to the
 * exact decimal, so String() of the result gives the decimal back for every value within MAX_AMOUNT_MINOR.
 */
export function toMajorNumber(scaled: bigint, decimals = 2): number {
  assertDecimals(decimals);
  if (typeof scaled !== 'bigint') throw new TypeError(`scaled amount must be a bigint, got ${typeof scaled}`);
  return Number(scaledToDecimal(scaled, decimals));
}

/**
 * String(value) is the shortest round-tripping form (ECMA-262 Number::toString) but switches to exponent
 * notation below 1e-6 and from 1e21; those are expanded so the text parser sees plain digits.
 */
function shortestDecimal(value: number): string {
  const text = String(Object.is(value, -0) ? 0 : value);
  const exp = /^(-?)([0-9])(?:\.([0-9]+))?e([+-][0-9]+)$/.exec(text);
  if (exp === null) return text;
  const [, sign = '', lead = '', rest = '', power = '0'] = exp;
  const digits = lead + rest;
  const pointAt = 1 + Number(power);
  if (pointAt <= 0) return `${sign}0.${'0'.repeat(-pointAt)}${digits}`;
  if (pointAt >= digits.length) return sign + digits + '0'.repeat(pointAt - digits.length);
  return `${sign}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
}

function assertDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS_SUPPORTED) {
    throw new RangeError(`decimals must be an integer from 0 to ${MAX_DECIMALS_SUPPORTED}, got ${decimals}`);
  }
}

function outOfRange(input: string, decimals: number): MoneyFormatError {
  return new MoneyFormatError('out_of_range', `at most ${scaledToDecimal(MAX_AMOUNT_MINOR, decimals)}`, {
    input,
  });
}
