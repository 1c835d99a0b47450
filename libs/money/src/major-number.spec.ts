import fc from 'fast-check';
import { formatAmount } from './amount';
import { MoneyFormatError } from './errors';
import { MAX_AMOUNT_MINOR } from './limits';
import { parseMajorNumber, toMajorNumber } from './major-number';

function formatError(run: () => unknown): MoneyFormatError {
  try {
    run();
  } catch (error) {
    if (error instanceof MoneyFormatError) return error;
    throw error;
  }
  throw new Error('expected a MoneyFormatError');
}

describe('parseMajorNumber', () => {
  it.each([
    [10, 1000n],
    [10.5, 1050n],
    [10.55, 1055n],
    [0.01, 1n],
    [0.29, 29n],
    [4.35, 435n],
    [1.15, 115n],
    [8.2, 820n],
    [100000000000, 10000000000000n],
    [10000000000000, MAX_AMOUNT_MINOR],
  ])('reads %p as %p cents without float multiplication', (value, minor) => {
    expect(parseMajorNumber(value)).toBe(minor);
  });

  it('rejects 1.005, which has three decimals', () => {
    const error = formatError(() => parseMajorNumber(1.005));
    expect(error.code).toBe('too_many_decimals');
    expect(error.message).toBe('invalid amount "1.005": at most 2 decimal places');
  });

  it('rejects float arithmetic results such as 0.1 + 0.2 rather than rounding them', () => {
    expect(formatError(() => parseMajorNumber(0.1 + 0.2)).input).toBe('0.30000000000000004');
    expect(formatError(() => parseMajorNumber(0.1 + 0.7)).input).toBe('0.7999999999999999');
  });

  it('rejects zero unless allowed, and negatives always', () => {
    expect(formatError(() => parseMajorNumber(0)).code).toBe('not_positive');
    expect(formatError(() => parseMajorNumber(-0)).code).toBe('not_positive');
    expect(parseMajorNumber(0, 2, { allowZero: true })).toBe(0n);
    expect(formatError(() => parseMajorNumber(-1, 2, { allowZero: true })).reason).toBe(
      'must not be negative',
    );
  });

  it.each([NaN, Infinity, -Infinity])('rejects %p', (value) => {
    expect(formatError(() => parseMajorNumber(value)).reason).toBe('must be a finite number');
  });

  it('rejects a string in place of the number', () => {
    expect(formatError(() => parseMajorNumber('10' as unknown as number)).code).toBe('invalid_format');
  });

  it('expands exponent notation instead of misreading it', () => {
    expect(formatError(() => parseMajorNumber(1e-7)).input).toBe('0.0000001');
    expect(formatError(() => parseMajorNumber(1.5e-7)).code).toBe('too_many_decimals');
    expect(formatError(() => parseMajorNumber(1e21)).code).toBe('out_of_range');
    expect(parseMajorNumber(1e-6, 6)).toBe(1n);
  });

  it('rejects amounts above 10^15 units', () => {
    expect(formatError(() => parseMajorNumber(10000000000000.01)).reason).toBe('at most 10000000000000.00');
  });

  it('honours maxDecimals', () => {
    expect(parseMajorNumber(5, 0)).toBe(5n);
    expect(formatError(() => parseMajorNumber(5.5, 0)).reason).toBe('must be a whole number');
    expect(parseMajorNumber(1.005, 3)).toBe(1005n);
    expect(() => parseMajorNumber(1, 2.5)).toThrow(RangeError);
    expect(() => parseMajorNumber(1, -1)).toThrow(RangeError);
  });

  it.each([0, 2, 3])('recovers every in-range amount typed as a JSON number with %i decimals', (decimals) => {
    const currency = ({ 0: 'JPY', 2: 'USD', 3: 'KWD' } as const)[decimals as 0 | 2 | 3];
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_AMOUNT_MINOR }), (minor) => {
        const asJson = JSON.parse(formatAmount(minor, currency)) as number;
        expect(parseMajorNumber(asJson, decimals)).toBe(minor);
        expect(toMajorNumber(minor, decimals)).toBe(asJson);
      }),
      { numRuns: 1000, examples: [[1n], [MAX_AMOUNT_MINOR], [MAX_AMOUNT_MINOR - 1n], [999999999999999n]] },
    );
  });
});

describe('toMajorNumber', () => {
  it('writes cents as a JSON number', () => {
    expect(toMajorNumber(1050n)).toBe(10.5);
    expect(toMajorNumber(29n)).toBe(0.29);
    expect(JSON.stringify({ amount: toMajorNumber(435n) })).toBe('{"amount":4.35}');
    expect(toMajorNumber(-1n)).toBe(-0.01);
  });

  it('refuses a number where a bigint belongs', () => {
    expect(() => toMajorNumber(1050 as unknown as bigint)).toThrow(TypeError);
  });
});
