import fc from 'fast-check';
import { CURRENCY_EXPONENTS, SUPPORTED_CURRENCIES } from './currencies';
import { currencyExponent, formatAmount, parseAmount, parsePositiveAmount } from './amount';
import { MoneyFormatError } from './errors';
import { MAX_AMOUNT_MINOR } from './limits';

function formatError(run: () => unknown): MoneyFormatError {
  try {
    run();
  } catch (error) {
    if (error instanceof MoneyFormatError) return error;
    throw error;
  }
  throw new Error('expected a MoneyFormatError');
}

const currencyPerExponent = { 0: 'JPY', 2: 'USD', 3: 'KWD' } as const;
const anyCurrency = fc.constantFrom(...SUPPORTED_CURRENCIES);
const inRange = fc.bigInt({ min: 0n, max: MAX_AMOUNT_MINOR });

/** Canonical strings built from parts, independent of formatAmount, so the round trip is not circular. */
function canonicalDecimal(exponent: number): fc.Arbitrary<string> {
  const integerPart = fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,11}$/));
  if (exponent === 0) return integerPart;
  return fc
    .tuple(integerPart, fc.stringMatching(new RegExp(`^[0-9]{${exponent}}$`)))
    .map(([whole, fraction]) => `${whole}.${fraction}`);
}

describe('parseAmount', () => {
  it.each([
    ['10.50', 'USD', 1050n],
    ['10.5', 'USD', 1050n],
    ['10', 'USD', 1000n],
    ['0', 'USD', 0n],
    ['0.01', 'USD', 1n],
    ['0.29', 'USD', 29n],
    ['4.35', 'USD', 435n],
    ['1.15', 'EUR', 115n],
    ['5', 'JPY', 5n],
    ['1000000', 'KRW', 1000000n],
    ['0.001', 'KWD', 1n],
    ['1.005', 'KWD', 1005n],
    ['12.3', 'BHD', 12300n],
    ['10000000000000', 'USD', MAX_AMOUNT_MINOR],
    ['1000000000000000', 'JPY', MAX_AMOUNT_MINOR],
    ['1000000000000', 'KWD', MAX_AMOUNT_MINOR],
  ])('reads %s %s as %p minor units', (decimal, currency, minor) => {
    expect(parseAmount(decimal, currency)).toBe(minor);
  });

  it('rejects three decimals for USD', () => {
    const error = formatError(() => parseAmount('10.505', 'USD'));
    expect(error.code).toBe('too_many_decimals');
    expect(error.reason).toBe('at most 2 decimal places for USD');
    expect(error.message).toBe('invalid amount "10.505": at most 2 decimal places for USD');
  });

  it('rejects any decimals for JPY, even zeros', () => {
    expect(formatError(() => parseAmount('5.0', 'JPY')).reason).toBe('no decimal places allowed for JPY');
  });

  it('rejects four decimals for KWD', () => {
    expect(formatError(() => parseAmount('1.0001', 'KWD')).reason).toBe('at most 3 decimal places for KWD');
  });

  it.each([
    ['', 'must not be empty'],
    ['-1.00', 'must not have a sign'],
    ['+1.00', 'must not have a sign'],
    ['1e3', 'must not use exponent notation'],
    ['1E3', 'must not use exponent notation'],
    [' 1.00', 'must not contain spaces'],
    ['1.00 ', 'must not contain spaces'],
    ['1.00\n', 'must not contain spaces'],
    ['1 000', 'must not contain spaces'],
    ['1,000.00', "must not contain ',' (use '.' as the decimal point, no thousands separators)"],
    ['1,5', "must not contain ',' (use '.' as the decimal point, no thousands separators)"],
    ['.5', "needs a digit before the decimal point (write '0.5', not '.5')"],
    ['5.', "needs digits after the decimal point (write '5' or '5.00', not '5.')"],
    ['007', 'must not have leading zeros'],
    ['00.50', 'must not have leading zeros'],
    ['1.2.3', "must be digits with an optional '.' and fraction digits"],
    ['abc', "must be digits with an optional '.' and fraction digits"],
    ['NaN', "must be digits with an optional '.' and fraction digits"],
    ['Infinity', "must be digits with an optional '.' and fraction digits"],
    ['0x10', "must be digits with an optional '.' and fraction digits"],
    ['١٢', "must be digits with an optional '.' and fraction digits"],
  ])('rejects %j: %s', (decimal, reason) => {
    const error = formatError(() => parseAmount(decimal, 'USD'));
    expect(error.code).toBe('invalid_format');
    expect(error.reason).toBe(reason);
  });

  it('rejects a JSON number in place of the string', () => {
    const error = formatError(() => parseAmount(10.5 as unknown as string, 'USD'));
    expect(error.reason).toBe('must be a decimal string, not a number');
  });

  it('rejects amounts above 10^15 minor units, naming the limit in the currency', () => {
    expect(formatError(() => parseAmount('10000000000000.01', 'USD')).reason).toBe(
      'at most 10000000000000.00 USD',
    );
    expect(formatError(() => parseAmount('1000000000000001', 'JPY')).code).toBe('out_of_range');
    expect(formatError(() => parseAmount('9'.repeat(5000), 'USD')).code).toBe('out_of_range');
  });

  it('rejects an unsupported currency before looking at the amount', () => {
    expect(formatError(() => parseAmount('nonsense', 'usd')).code).toBe('unsupported_currency');
  });

  it('keeps long inputs out of the message', () => {
    const error = formatError(() => parseAmount(`1.${'0'.repeat(10000)}`, 'USD'));
    expect(error.message.length).toBeLessThan(120);
  });

  it('accepts exactly the documented grammar and throws nothing but MoneyFormatError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), anyCurrency, (text, currency) => {
        const exponent = CURRENCY_EXPONENTS[currency];
        const grammar = new RegExp(
          exponent === 0 ? '^(0|[1-9][0-9]*)$' : `^(0|[1-9][0-9]*)(\\.[0-9]{1,${exponent}})?$`,
        );
        let accepted: boolean;
        try {
          parseAmount(text, currency);
          accepted = true;
        } catch (error) {
          expect(error).toBeInstanceOf(MoneyFormatError);
          accepted = false;
        }
        if (accepted) expect(text).toMatch(grammar);
      }),
    );
  });
});

describe('parsePositiveAmount', () => {
  it('rejects zero, written any way', () => {
    for (const zero of ['0', '0.0', '0.00']) {
      const error = formatError(() => parsePositiveAmount(zero, 'USD'));
      expect(error.code).toBe('not_positive');
      expect(error.reason).toBe('must be greater than 0');
    }
  });

  it('accepts the smallest unit', () => {
    expect(parsePositiveAmount('0.01', 'USD')).toBe(1n);
    expect(parsePositiveAmount('1', 'JPY')).toBe(1n);
  });
});

describe('formatAmount', () => {
  it.each([
    [1050n, 'USD', '10.50'],
    [1000n, 'USD', '10.00'],
    [1n, 'USD', '0.01'],
    [0n, 'USD', '0.00'],
    [5n, 'JPY', '5'],
    [0n, 'JPY', '0'],
    [1n, 'KWD', '0.001'],
    [1234567n, 'KWD', '1234.567'],
    [-1050n, 'USD', '-10.50'],
    [-1n, 'KWD', '-0.001'],
    [MAX_AMOUNT_MINOR, 'USD', '10000000000000.00'],
  ])('writes %p %s as %j', (minor, currency, decimal) => {
    expect(formatAmount(minor, currency)).toBe(decimal);
  });

  it('refuses a number or string in place of a bigint', () => {
    expect(() => formatAmount(1050 as unknown as bigint, 'USD')).toThrow(TypeError);
    expect(() => formatAmount('1050' as unknown as bigint, 'USD')).toThrow(TypeError);
  });

  it('refuses an unsupported currency', () => {
    expect(() => formatAmount(1n, 'XXX')).toThrow(MoneyFormatError);
  });
});

describe('round trips', () => {
  it.each([0, 2, 3] as const)('format(parse(x)) === x for canonical strings with exponent %i', (exponent) => {
    const currency = currencyPerExponent[exponent];
    fc.assert(
      fc.property(canonicalDecimal(exponent), (decimal) => {
        expect(formatAmount(parseAmount(decimal, currency), currency)).toBe(decimal);
      }),
      { numRuns: 500 },
    );
  });

  it.each([0, 2, 3] as const)('parse(format(n)) === n for every n in range with exponent %i', (exponent) => {
    const currency = currencyPerExponent[exponent];
    fc.assert(
      fc.property(inRange, (minor) => {
        expect(parseAmount(formatAmount(minor, currency), currency)).toBe(minor);
      }),
      { numRuns: 500, examples: [[0n], [1n], [99n], [100n], [MAX_AMOUNT_MINOR], [MAX_AMOUNT_MINOR - 1n]] },
    );
  });

  it('parse(format(n)) === n for every supported currency', () => {
    fc.assert(
      fc.property(inRange, anyCurrency, (minor, currency) => {
        expect(parseAmount(formatAmount(minor, currency), currency)).toBe(minor);
      }),
    );
  });

  it('treats a shorter fraction as padded with zeros', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[1-9][0-9]{0,9}$/),
        fc.stringMatching(/^[0-9]{1,2}$/),
        (whole, fraction) => {
          expect(parseAmount(`${whole}.${fraction}`, 'KWD')).toBe(
            parseAmount(`${whole}.${fraction.padEnd(3, '0')}`, 'KWD'),
          );
        },
      ),
    );
  });

  it('adds parsed amounts exactly as bigints add', () => {
    const half = fc.bigInt({ min: 0n, max: MAX_AMOUNT_MINOR / 2n });
    fc.assert(
      fc.property(half, half, anyCurrency, (a, b, currency) => {
        const sum =
          parseAmount(formatAmount(a, currency), currency) + parseAmount(formatAmount(b, currency), currency);
        expect(sum).toBe(a + b);
        expect(parseAmount(formatAmount(a + b, currency), currency)).toBe(sum);
      }),
    );
  });

  it('formats with exactly the exponent digits', () => {
    fc.assert(
      fc.property(inRange, anyCurrency, (minor, currency) => {
        const exponent = currencyExponent(currency);
        const fraction = formatAmount(minor, currency).split('.')[1];
        expect(fraction?.length ?? 0).toBe(exponent);
      }),
    );
  });
});
