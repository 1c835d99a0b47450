import {
  cardBrandOf,
  cardNumberProblem,
  cvcProblem,
  maskCardNumber,
  normaliseCardNumber,
} from './card-rules';

describe('card number rules', () => {
  it.each([
    ['4242424242424242', 'VISA'],
    ['5555555555554444', 'MASTERCARD'],
    ['2223003122003222', 'MASTERCARD'],
    ['378282246310005', 'AMEX'],
    ['6011111111111117', 'DISCOVER'],
    ['3566002020360505', 'JCB'],
  ])('accepts %s as a valid %s number', (number, brand) => {
    expect(cardNumberProblem(number)).toBeUndefined();
    expect(cardBrandOf(number)).toBe(brand);
  });

  it('refuses a failed check digit, a wrong length for the brand, and anything but digits', () => {
    expect(cardNumberProblem('4242424242424241')).toBe('failed_luhn');
    expect(cardNumberProblem('42424242424242')).toBe('invalid_length');
    expect(cardNumberProblem('37828224631000')).toBe('invalid_length');
    expect(cardNumberProblem('4242x42424242424')).toBe('not_digits');
  });

  it('takes the spaces and dashes shoppers type, and masks as first six, six stars, last four', () => {
    expect(normaliseCardNumber('4242 4242-4242 4242')).toBe('4242424242424242');
    expect(maskCardNumber('4242424242424242')).toBe('424242******4242');
    expect(maskCardNumber('378282246310005')).toBe('378282******0005');
  });

  it('wants a 4-digit CVC for AMEX and 3 digits otherwise', () => {
    expect(cvcProblem('378282246310005', '1234')).toBeUndefined();
    expect(cvcProblem('378282246310005', '123')).toBe('must be 4 digits for this card');
    expect(cvcProblem('4242424242424242', '1234')).toBe('must be 3 digits for this card');
  });
});
