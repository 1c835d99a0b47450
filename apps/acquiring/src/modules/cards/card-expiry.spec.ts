import { isExpired } from './card-expiry';

describe('card expiry', () => {
  const now = new Date('2026-06-15T00:00:00Z');

  it('keeps a card valid through the end of its expiry month', () => {
    expect(isExpired('06', '2026', now)).toBe(false);
    expect(isExpired('05', '2026', now)).toBe(true);
    expect(isExpired('01', '27', now)).toBe(false);
    expect(isExpired('12', '25', now)).toBe(true);
  });
});
