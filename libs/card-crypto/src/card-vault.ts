import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Card secrets at rest (architecture rule 7): AES-256-GCM with a fresh IV per value and the owning
 * row's id as associated data, so a ciphertext copied onto another row does not open. The fingerprint
 * (HMAC-SHA256 under its own key) recognises the same card number again without decrypting anything.
 *
 * Keys rotate by id: values are written under the active key and name it (`v2.<keyId>.<iv>.<tag>.<ct>`),
 * and any key still in the ring opens what it wrote. A key without an id writes and reads the original
 * format `v1.<iv>.<tag>.<ct>` (acquiring's saved cards), so existing rows stay readable.
 */
export interface VaultKey {
  /** Null for the unnamed key of `v1` values; otherwise a short token ([A-Za-z0-9_-]) stored in each value. */
  id: string | null;
  key: Buffer;
}

export interface VaultKeys {
  active: VaultKey;
  /** Keys that no longer write but must still open what they wrote. */
  retired?: readonly VaultKey[];
  /** Key of the fingerprint HMAC; it must not change on rotation, or known cards stop matching. */
  fingerprint: Buffer;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

export class CardVaultError extends Error {}

export class CardVault {
  private readonly ring = new Map<string | null, Buffer>();

  constructor(private readonly keys: VaultKeys) {
    for (const { id, key } of [keys.active, ...(keys.retired ?? [])]) {
      if (id !== null && !KEY_ID.test(id))
        throw new Error(`vault key id ${JSON.stringify(id)} must match ${KEY_ID}`);
      if (key.length !== 32) throw new Error('vault keys must be 32 bytes (AES-256)');
      this.ring.set(id, key);
    }
  }

  encrypt(plaintext: string, associatedData: string): string {
    const { id, key } = this.keys.active;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(associatedData));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'));
    return id === null ? ['v1', ...parts].join('.') : ['v2', id, ...parts].join('.');
  }

  /** Throws CardVaultError for an unknown format or key id, and when the value does not authenticate. */
  decrypt(ciphertext: string, associatedData: string): string {
    const parts = ciphertext.split('.');
    const [keyId, encoded] =
      parts[0] === 'v1' && parts.length === 4
        ? [null, parts.slice(1)]
        : parts[0] === 'v2' && parts.length === 5
          ? [parts[1], parts.slice(2)]
          : [undefined, []];
    if (keyId === undefined) throw new CardVaultError('vault value has an unknown format');
    const key = this.ring.get(keyId);
    if (!key)
      throw new CardVaultError(`vault value is under key ${keyId ?? '(unnamed)'}, which is not in the ring`);
    const [iv, tag, body] = encoded.map((part) => Buffer.from(part, 'base64url'));
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(Buffer.from(associatedData));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      throw new CardVaultError('vault value does not open with its key and associated data');
    }
  }

  fingerprint(plaintext: string): string {
    return createHmac('sha256', this.keys.fingerprint).update(plaintext).digest('base64url');
  }
}
