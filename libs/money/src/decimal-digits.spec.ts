import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { decimalToScaled, scaledToDecimal } from './decimal-digits';

describe('decimal digits', () => {
  it('is exact far beyond float precision (2^53)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[1-9][0-9]{15,16}$/),
        fc.stringMatching(/^[0-9]{3}$/),
        (integerPart, fraction) => {
          const result = decimalToScaled(`${integerPart}.${fraction}`, 3);
          expect(result).toEqual({ ok: true, scaled: BigInt(integerPart + fraction) });
        },
      ),
    );
    expect(decimalToScaled('9007199254740993', 0)).toEqual({ ok: true, scaled: 9007199254740993n });
    expect(scaledToDecimal(9007199254740993n, 2)).toBe('90071992547409.93');
  });

  it('refuses more than nineteen integer digits before building a bigint', () => {
    expect(decimalToScaled('1'.repeat(20), 0)).toEqual({ ok: false, problem: 'range' });
  });

  it.each(['amount.ts', 'decimal-digits.ts'])('never touches floats in %s', (file) => {
    const code = readFileSync(join(__dirname, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
    expect(code).not.toMatch(/\bNumber\b|parseFloat|parseInt|\bMath\.|toFixed|toPrecision/);
  });
});
