import { passesLuhn } from '@paygrid/contracts';
import { expiryFrom, formatExpiry, isExpired, newCvv, newPan } from './card-number';

describe('card numbers', () => {
  it('mints 16-digit numbers on the BIN that pass Luhn', () => {
    for (let i = 0; i < 200; i += 1) {
      const pan = newPan('491090');
      expect(pan).toMatch(/^491090\d{10}$/);
      expect(passesLuhn(pan)).toBe(true);
    }
  });

  it('mints 3-digit CVVs', () => {
    for (let i = 0; i < 50; i += 1) expect(newCvv()).toMatch(/^\d{3}$/);
  });

  it('expires three years on, valid through the end of the month', () => {
    const now = new Date('2026-05-20T10:00:00Z');
    const expiry = expiryFrom(now);
    expect(expiry).toEqual({ month: 5, year: 2029 });
    expect(formatExpiry(expiry.month, expiry.year)).toBe('05/29');
    const card = { expiryMonth: 5, expiryYear: 2029, expiryAt: null };
    expect(isExpired(card, new Date('2029-05-31T23:59:59Z'))).toBe(false);
    expect(isExpired(card, new Date('2029-06-01T00:00:00Z'))).toBe(true);
  });

  it('ends a one-time card at its expiry_at', () => {
    const card = { expiryMonth: 5, expiryYear: 2029, expiryAt: new Date('2026-06-01T00:00:00Z') };
    expect(isExpired(card, new Date('2026-05-31T00:00:00Z'))).toBe(false);
    expect(isExpired(card, new Date('2026-06-01T00:00:00Z'))).toBe(true);
  });
});
