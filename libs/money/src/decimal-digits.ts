/**
 * Why: the one place where decimal text and scaled integers meet. It works on digit strings and bigint only, so
 * no amount ever passes through a binary float (a spec test scans this file to keep it that way).
 * Internal to the lib: callers go through amount.ts (per currency) or major-number.ts (JSON numbers).
 */

/** Canonical decimal: no sign, no leading zeros, digits on both sides of an optional point. */
const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/** More integer digits than this cannot be in range for any exponent, so BigInt() is never fed huge strings. */
const MAX_INTEGER_DIGITS = 19;

export type DigitsResult =
  | { ok: true; scaled: bigint }
  | { ok: false; problem: 'format'; detail: string }
  | { ok: false; problem: 'decimals' | 'range' };

/** `text` times 10^exponent, exactly; a format `detail` explains the problem in words fit for an API client. */
export function decimalToScaled(text: string, exponent: number): DigitsResult {
  const match = DECIMAL.exec(text);
  if (match === null) return { ok: false, problem: 'format', detail: describeBadFormat(text) };
  const integerPart = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (fraction.length > exponent) return { ok: false, problem: 'decimals' };
  if (integerPart.length > MAX_INTEGER_DIGITS) return { ok: false, problem: 'range' };
  return { ok: true, scaled: BigInt(integerPart + fraction.padEnd(exponent, '0')) };
}

/** The decimal text of `scaled / 10^exponent` with exactly `exponent` fraction digits; '-' for negatives. */
export function scaledToDecimal(scaled: bigint, exponent: number): string {
  const sign = scaled < 0n ? '-' : '';
  const digits = (scaled < 0n ? -scaled : scaled).toString();
  if (exponent === 0) return sign + digits;
  const padded = digits.padStart(exponent + 1, '0');
  return `${sign}${padded.slice(0, -exponent)}.${padded.slice(-exponent)}`;
}

function describeBadFormat(text: string): string {
  if (text === '') return 'must not be empty';
  if (/\s/.test(text)) return 'must not contain spaces';
  if (/^[+-]/.test(text)) return 'must not have a sign';
  if (/[eE]/.test(text)) return 'must not use exponent notation';
  if (/,/.test(text)) return "must not contain ',' (use '.' as the decimal point, no thousands separators)";
  if (/^\./.test(text)) return "needs a digit before the decimal point (write '0.5', not '.5')";
  if (/\.$/.test(text)) return "needs digits after the decimal point (write '5' or '5.00', not '5.')";
  if (/^0[0-9]/.test(text)) return 'must not have leading zeros';
  return "must be digits with an optional '.' and fraction digits";
}
