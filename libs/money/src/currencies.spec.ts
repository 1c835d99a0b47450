import { CURRENCY_EXPONENTS, SUPPORTED_CURRENCIES, isSupportedCurrency } from './currencies';
import { currencyExponent } from './amount';
import { MoneyFormatError } from './errors';

describe('currency table', () => {
  it.each([
    ['USD', 2],
    ['EUR', 2],
    ['GBP', 2],
    ['SGD', 2],
    ['HKD', 2],
    ['CNH', 2],
    ['XUSD', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['VND', 0],
    ['CLP', 0],
    ['ISK', 0],
    ['UGX', 0],
    ['XAF', 0],
    ['XOF', 0],
    ['BHD', 3],
    ['IQD', 3],
    ['JOD', 3],
    ['KWD', 3],
    ['LYD', 3],
    ['OMR', 3],
    ['TND', 3],
  ])('knows %s has exponent %i', (code, exponent) => {
    expect(isSupportedCurrency(code)).toBe(true);
    expect(currencyExponent(code)).toBe(exponent);
  });

  it('holds only exponents 0, 2 and 3 and three-or-four-letter upper-case codes', () => {
    for (const code of SUPPORTED_CURRENCIES) {
      expect(code).toMatch(/^[A-Z]{3,4}$/);
      expect([0, 2, 3]).toContain(CURRENCY_EXPONENTS[code]);
    }
    expect(new Set(SUPPORTED_CURRENCIES).size).toBe(SUPPORTED_CURRENCIES.length);
  });

  it.each(['usd', 'Usd', ' USD', 'USD ', '', 'XXX', 'XAU', 'CLF', 'constructor', '__proto__', 'toString'])(
    'does not support %j',
    (code) => {
      expect(isSupportedCurrency(code)).toBe(false);
      expect(() => currencyExponent(code)).toThrow(MoneyFormatError);
    },
  );

  it('does not support non-strings', () => {
    expect(isSupportedCurrency(undefined)).toBe(false);
    expect(isSupportedCurrency(840)).toBe(false);
  });

  it('names the unsupported currency in the error', () => {
    expect(() => currencyExponent('ABC')).toThrow('unsupported currency "ABC"');
    try {
      currencyExponent('ABC');
    } catch (error) {
      expect(error).toMatchObject({ code: 'unsupported_currency', currency: 'ABC' });
    }
  });

  it('cannot be modified at runtime', () => {
    expect(Object.isFrozen(CURRENCY_EXPONENTS)).toBe(true);
    expect(Object.isFrozen(SUPPORTED_CURRENCIES)).toBe(true);
  });
});
