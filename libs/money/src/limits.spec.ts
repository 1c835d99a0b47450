import { MoneyRangeError } from './errors';
import { MAX_AMOUNT_MINOR, assertSafeMinorUnits, isSafeMinorUnits, minorUnitsFromDb } from './limits';

describe('storable range', () => {
  it('is 10^15 minor units either side of zero, well inside Postgres bigint', () => {
    expect(MAX_AMOUNT_MINOR).toBe(1_000_000_000_000_000n);
    expect(MAX_AMOUNT_MINOR * 1000n).toBeLessThan(2n ** 63n - 1n);
    expect(isSafeMinorUnits(MAX_AMOUNT_MINOR)).toBe(true);
    expect(isSafeMinorUnits(-MAX_AMOUNT_MINOR)).toBe(true);
    expect(isSafeMinorUnits(MAX_AMOUNT_MINOR + 1n)).toBe(false);
    expect(() => assertSafeMinorUnits(MAX_AMOUNT_MINOR + 1n)).toThrow(MoneyRangeError);
  });

  it('reads back the string pg returns for a bigint column', () => {
    expect(minorUnitsFromDb('1050')).toBe(1050n);
    expect(minorUnitsFromDb('-1050')).toBe(-1050n);
    expect(minorUnitsFromDb('0')).toBe(0n);
    expect(minorUnitsFromDb(1050n)).toBe(1050n);
    expect(minorUnitsFromDb(1050)).toBe(1050n);
  });

  it.each(['', '10.50', '1e3', ' 1', '01', '-0x1', 'abc', '9'.repeat(40)])(
    'refuses corrupt column value %j',
    (value) => {
      expect(() => minorUnitsFromDb(value)).toThrow(TypeError);
    },
  );

  it('refuses unsafe numbers and out-of-range values', () => {
    expect(() => minorUnitsFromDb(1.5)).toThrow(TypeError);
    expect(() => minorUnitsFromDb(2 ** 60)).toThrow(TypeError);
    expect(() => minorUnitsFromDb('9223372036854775807')).toThrow(MoneyRangeError);
  });
});
