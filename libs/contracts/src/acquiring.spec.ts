import { randomBytes } from 'node:crypto';
import {
  cardBrandOf,
  cardNumberProblem,
  crossFieldProblems,
  cvcProblem,
  decodeAes256Key,
  DEVELOPMENT_CARD_TRANSPORT_KEY,
  maskCardNumber,
  normaliseCardNumber,
  openCardSecrets,
  sealCardSecrets,
} from './acquiring';

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

describe('card transport sealing', () => {
  const key = randomBytes(32);

  it('opens with the same key what it sealed, and the sealed text shows neither number nor CVC', () => {
    const sealed = sealCardSecrets({ card_number: '4242424242424242', cvc: '987' }, key);
    expect(sealed).not.toContain('4242424242424242');
    expect(sealed).not.toContain('987');
    expect(openCardSecrets(sealed, key)).toEqual({ card_number: '4242424242424242', cvc: '987' });
  });

  it('refuses another key, an altered text and a foreign format', () => {
    const sealed = sealCardSecrets({ card_number: '4242424242424242', cvc: '987' }, key);
    expect(() => openCardSecrets(sealed, randomBytes(32))).toThrow('could not be opened');
    const parts = sealed.split('.');
    parts[3] = `${parts[3].slice(0, -2)}AA`;
    expect(() => openCardSecrets(parts.join('.'), key)).toThrow('could not be opened');
    expect(() => openCardSecrets('4242424242424242', key)).toThrow('unknown format');
  });

  it('reads a base64 32-byte key and refuses anything else', () => {
    expect(decodeAes256Key(DEVELOPMENT_CARD_TRANSPORT_KEY)).toHaveLength(32);
    expect(() => decodeAes256Key('c2hvcnQ=')).toThrow('must be 32 bytes');
  });
});

describe('cross-field rules of spec 4.1', () => {
  it('wants a state for US and CA billing addresses only', () => {
    const withCountry = (country_code: string, state?: string) => ({
      payment_method: { card: { billing: { address: { country_code, state } } } },
    });
    expect(crossFieldProblems(withCountry('US'))).toEqual(['payment_method.card.billing.address.state: is required when country_code is US']);
    expect(crossFieldProblems(withCountry('CA', 'ON'))).toEqual([]);
    expect(crossFieldProblems(withCountry('GB'))).toEqual([]);
  });

  it('wants ip_address and browser_info with enforce_3ds', () => {
    const enforce = { payment_method: { card: { three_ds_action: 'enforce_3ds' } } };
    expect(crossFieldProblems(enforce)).toHaveLength(2);
    expect(crossFieldProblems({ ...enforce, ip_address: '203.0.113.1', browser_info: {} })).toEqual([]);
  });

  it('measures metadata in UTF-8 bytes of its JSON, at most 512', () => {
    expect(crossFieldProblems({ metadata: { note: 'a'.repeat(490) } })).toEqual([]);
    expect(crossFieldProblems({ metadata: { note: 'é'.repeat(251) } })).toEqual(['metadata: must be at most 512 bytes as JSON']);
  });
});
