import { randomBytes } from 'node:crypto';
import { CardVault } from './card-vault';
import { isExpired } from './card-number';

describe('the card vault', () => {
  const vault = new CardVault({ CARD_ENCRYPTION_KEY: randomBytes(32) });
  const pan = '4242424242424242';

  it('encrypts a card number so the ciphertext does not contain it, and decrypts it back', () => {
    const ciphertext = vault.encrypt(pan, 'card_1');
    expect(ciphertext).toMatch(/^v1\./);
    expect(ciphertext).not.toContain(pan);
    expect(vault.decrypt(ciphertext, 'card_1')).toBe(pan);
  });

  it('uses a fresh IV for every encryption', () => {
    expect(vault.encrypt(pan, 'card_1')).not.toBe(vault.encrypt(pan, 'card_1'));
  });

  it('refuses a ciphertext moved onto another saved card or encrypted under another key', () => {
    const ciphertext = vault.encrypt(pan, 'card_1');
    expect(() => vault.decrypt(ciphertext, 'card_2')).toThrow();
    expect(() => new CardVault({ CARD_ENCRYPTION_KEY: randomBytes(32) }).decrypt(ciphertext, 'card_1')).toThrow();
  });

  it('fingerprints the same number the same way without revealing it', () => {
    expect(vault.fingerprint(pan)).toBe(vault.fingerprint(pan));
    expect(vault.fingerprint(pan)).not.toBe(vault.fingerprint('5555555555554444'));
    expect(vault.fingerprint(pan)).not.toContain(pan);
  });
});

describe('card expiry', () => {
  const now = new Date('2026-06-15T00:00:00Z');

  it('keeps a card valid through the end of its expiry month', () => {
    expect(isExpired('06', '2026', now)).toBe(false);
    expect(isExpired('05', '2026', now)).toBe(true);
    expect(isExpired('01', '27', now)).toBe(false);
    expect(isExpired('12', '25', now)).toBe(true);
  });
});
