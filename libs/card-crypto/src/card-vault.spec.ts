import { randomBytes } from 'node:crypto';
import { CardVault } from './card-vault';

const unnamed = (key: Buffer = randomBytes(32)) => ({ id: null, key });

describe('the card vault', () => {
  const fingerprint = randomBytes(32);
  const vault = new CardVault({ active: unnamed(), fingerprint });
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
    expect(() => new CardVault({ active: unnamed(), fingerprint }).decrypt(ciphertext, 'card_1')).toThrow();
  });

  it('fingerprints the same number the same way without revealing it', () => {
    expect(vault.fingerprint(pan)).toBe(vault.fingerprint(pan));
    expect(vault.fingerprint(pan)).not.toBe(vault.fingerprint('5555555555554444'));
    expect(vault.fingerprint(pan)).not.toContain(pan);
  });
});

describe('key rotation', () => {
  const fingerprint = randomBytes(32);
  const first = { id: 'k1', key: randomBytes(32) };
  const second = { id: 'k2', key: randomBytes(32) };
  const pan = '5555555555554444';

  it('writes under the active key, names it, and still opens what a retired key wrote', () => {
    const before = new CardVault({ active: first, fingerprint });
    const old = before.encrypt(pan, 'card_9');
    expect(old.startsWith('v2.k1.')).toBe(true);
    const after = new CardVault({ active: second, retired: [first], fingerprint });
    expect(after.encrypt(pan, 'card_9').startsWith('v2.k2.')).toBe(true);
    expect(after.decrypt(old, 'card_9')).toBe(pan);
    expect(after.fingerprint(pan)).toBe(before.fingerprint(pan));
  });

  it('refuses a value under a key that left the ring, naming the key', () => {
    const old = new CardVault({ active: first, fingerprint }).encrypt(pan, 'card_9');
    expect(() => new CardVault({ active: second, fingerprint }).decrypt(old, 'card_9')).toThrow('key k1');
  });

  it('keeps the unnamed key of the original format readable beside named ones', () => {
    const legacy = unnamed();
    const old = new CardVault({ active: legacy, fingerprint }).encrypt(pan, 'card_1');
    const rotated = new CardVault({ active: first, retired: [legacy], fingerprint });
    expect(rotated.decrypt(old, 'card_1')).toBe(pan);
  });
});
