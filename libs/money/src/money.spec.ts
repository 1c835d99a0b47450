import fc from 'fast-check';
import { CurrencyMismatchError, MoneyFormatError, MoneyRangeError } from './errors';
import { MAX_AMOUNT_MINOR } from './limits';
import {
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

const inRange = fc.bigInt({ min: -MAX_AMOUNT_MINOR / 2n, max: MAX_AMOUNT_MINOR / 2n });

describe('Money', () => {
  it('reads and writes wire decimals', () => {
    const price = moneyFromDecimal('10.5', 'USD');
    expect(price).toEqual({ amountMinor: 1050n, currency: 'USD' });
    expect(formatMoney(price)).toBe('10.50');
  });

  it('is immutable', () => {
    expect(Object.isFrozen(money(1n, 'USD'))).toBe(true);
  });

  it('refuses an unsupported currency', () => {
    expect(() => money(1n, 'usd')).toThrow(MoneyFormatError);
  });

  it('refuses amounts it could not store', () => {
    expect(() => money(MAX_AMOUNT_MINOR + 1n, 'USD')).toThrow(MoneyRangeError);
    expect(() => money(-MAX_AMOUNT_MINOR - 1n, 'USD')).toThrow(MoneyRangeError);
    expect(money(-MAX_AMOUNT_MINOR, 'USD').amountMinor).toBe(-MAX_AMOUNT_MINOR);
  });

  it('refuses a number where a bigint belongs', () => {
    expect(() => money(10 as unknown as bigint, 'USD')).toThrow(TypeError);
  });

  it('adds and subtracts exactly as bigints do', () => {
    fc.assert(
      fc.property(inRange, inRange, (a, b) => {
        expect(addMoney(money(a, 'KWD'), money(b, 'KWD')).amountMinor).toBe(a + b);
        expect(subtractMoney(money(a, 'KWD'), money(b, 'KWD')).amountMinor).toBe(a - b);
      }),
    );
  });

  it('refuses to add USD and EUR', () => {
    expect(() => addMoney(money(1n, 'USD'), money(1n, 'EUR'))).toThrow(
      new CurrencyMismatchError('add', 'USD', 'EUR'),
    );
    expect(() => addMoney(money(1n, 'USD'), money(1n, 'EUR'))).toThrow(
      'cannot add USD and EUR: currencies differ',
    );
  });

  it('refuses to subtract or compare across currencies', () => {
    expect(() => subtractMoney(money(1n, 'JPY'), money(1n, 'KRW'))).toThrow(CurrencyMismatchError);
    expect(() => compareMoney(money(1n, 'JPY'), money(1n, 'KRW'))).toThrow(CurrencyMismatchError);
    expect(() => sumMoney([money(1n, 'USD'), money(1n, 'SGD')], 'USD')).toThrow(CurrencyMismatchError);
  });

  it('refuses a sum that overflows the storable range', () => {
    expect(() => addMoney(money(MAX_AMOUNT_MINOR, 'USD'), money(1n, 'USD'))).toThrow(MoneyRangeError);
  });

  it('may go negative, as balances do', () => {
    const balance = subtractMoney(money(100n, 'USD'), money(250n, 'USD'));
    expect(formatMoney(balance)).toBe('-1.50');
    expect(negateMoney(balance).amountMinor).toBe(150n);
  });

  it('sums a list, and an empty list to zero in the given currency', () => {
    expect(sumMoney([money(1n, 'USD'), money(2n, 'USD'), money(3n, 'USD')], 'USD')).toEqual(money(6n, 'USD'));
    expect(sumMoney([], 'JPY')).toEqual(zeroMoney('JPY'));
  });

  it('compares within a currency and sorts', () => {
    const sorted = [money(3n, 'USD'), money(-1n, 'USD'), money(2n, 'USD')].sort(compareMoney);
    expect(sorted.map((m) => m.amountMinor)).toEqual([-1n, 2n, 3n]);
    expect(compareMoney(money(5n, 'USD'), money(5n, 'USD'))).toBe(0);
  });

  it('answers equality across currencies with false', () => {
    expect(moneyEquals(money(1n, 'USD'), money(1n, 'EUR'))).toBe(false);
    expect(moneyEquals(money(1n, 'USD'), money(1n, 'USD'))).toBe(true);
  });

  it('knows zero and positive', () => {
    expect(isZeroMoney(zeroMoney('USD'))).toBe(true);
    expect(isPositiveMoney(money(1n, 'USD'))).toBe(true);
    expect(isPositiveMoney(money(0n, 'USD'))).toBe(false);
  });
});
