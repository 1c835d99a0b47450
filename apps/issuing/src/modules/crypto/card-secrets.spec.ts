import { randomBytes } from 'node:crypto';
import { DEVELOPMENT_CARD_TRANSPORT_KEY, decodeAes256Key } from '@paygrid/card-crypto';
import { CardSecretVault, CardVaultError, IssuingTransport, SecretHasher, TransportError } from './card-secrets';

const key = () => randomBytes(32);
const fingerprint = key();
const vaultWith = (active: { id: string; key: Buffer }, retired: { id: string; key: Buffer }[] = []) =>
  new CardSecretVault({
    ISSUING_CARD_KEY: active.key,
    ISSUING_CARD_KEY_ID: active.id,
    ISSUING_CARD_RETIRED_KEYS: retired,
    ISSUING_FINGERPRINT_KEY: fingerprint,
  });

describe('the card vault', () => {
  const old = { id: 'k1', key: key() };
  const fresh = { id: 'k2', key: key() };

  it('writes under the active key id and opens only with the same row as associated data', () => {
    const vault = vaultWith(old);
    const stored = vault.encrypt('4910901000000000', 'card-a');
    expect(stored).toMatch(/^v2\.k1\./);
    expect(stored).not.toContain('4910901000000000');
    expect(vault.decrypt(stored, 'card-a')).toBe('4910901000000000');
    expect(() => vault.decrypt(stored, 'card-b')).toThrow(CardVaultError);
  });

  it('rotates: the new key writes, a retired key still reads, a dropped key no longer does', () => {
    const written = vaultWith(old).encrypt('123', 'row');
    const rotated = vaultWith(fresh, [old]);
    expect(rotated.decrypt(written, 'row')).toBe('123');
    expect(rotated.keyIdOf(rotated.encrypt('123', 'row'))).toBe('k2');
    expect(() => vaultWith(fresh).decrypt(written, 'row')).toThrow(/not in the ring/);
  });

  it('opens a value the earlier in-app vault wrote: the format did not change, so stored rows need no migration', () => {
    // Sealed by issuing's own AES-256-GCM code before the vault moved onto libs/card-crypto (key 32 × 0x07, id k1).
    const stored = 'v2.k1.cRYLdUAF9UWg1FNL.Cxviq6HNX8xQL7YGe2KXOg.ujznWdmsvtNnuB0CjFdlBw';
    const vault = vaultWith({ id: 'k1', key: Buffer.alloc(32, 7) });
    expect(vault.decrypt(stored, 'card_legacy_row')).toBe('4910901000000000');
    expect(() => vault.decrypt(stored, 'another_row')).toThrow(CardVaultError);
  });

  it('fingerprints the same number the same way whatever the card key', () => {
    expect(vaultWith(old).fingerprint('4111')).toBe(vaultWith(fresh).fingerprint('4111'));
    expect(vaultWith(old).fingerprint('4111')).not.toBe(vaultWith(old).fingerprint('4112'));
  });
});

describe('the transport seal', () => {
  const transport = new IssuingTransport({ CARD_TRANSPORT_KEY: decodeAes256Key(DEVELOPMENT_CARD_TRANSPORT_KEY) });

  it('round-trips the secrets and refuses what another key sealed or someone altered', () => {
    const sealed = transport.seal({ pin: '1234', activation_code: '100000' });
    expect(sealed).not.toContain('1234');
    expect(transport.open(sealed)).toEqual({ pin: '1234', activation_code: '100000' });
    expect(() => new IssuingTransport({ CARD_TRANSPORT_KEY: key() }).open(sealed)).toThrow(TransportError);
    // The ciphertext's first character altered: all six of its bits are data, unlike the last characters'
    // (padding bits, or already "AA"), so the sealed bytes always change.
    const parts = sealed.split('.');
    const ciphertext = parts[parts.length - 1];
    parts[parts.length - 1] = `${ciphertext.startsWith('A') ? 'B' : 'A'}${ciphertext.slice(1)}`;
    expect(() => transport.open(parts.join('.'))).toThrow(TransportError);
  });
});

describe('the secret hasher', () => {
  it('stores only a salted scrypt hash and checks against it', async () => {
    const hasher = new SecretHasher();
    const first = await hasher.hash('4821');
    const second = await hasher.hash('4821');
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(first).not.toBe(second);
    expect(await hasher.matches('4821', first)).toBe(true);
    expect(await hasher.matches('4822', first)).toBe(false);
    expect(await hasher.matches('4821', null)).toBe(false);
  });
});
