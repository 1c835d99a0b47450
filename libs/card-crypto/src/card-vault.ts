import { createHmac } from 'node:crypto';
import { EncryptionKey, KeyRing, KeyRingError } from '@paygrid/envelope-crypto';

/**
 * Card secrets at rest (architecture rule 7): the envelopes of libs/envelope-crypto (AES-256-GCM, a fresh
 * IV per value, the owning row's id as associated data, the key id in each value so keys rotate), plus a
 * fingerprint (HMAC-SHA256 under its own key) that recognises the same card number again without
 * decrypting anything. A key without an id writes and reads the original format `v1.<iv>.<tag>.<ct>`
 * (acquiring's saved cards), so existing rows stay readable.
 */
export type VaultKey = EncryptionKey;

export interface VaultKeys {
  active: VaultKey;
  /** Keys that no longer write but must still open what they wrote. */
  retired?: readonly VaultKey[];
  /** Key of the fingerprint HMAC; it must not change on rotation, or known cards stop matching. */
  fingerprint: Buffer;
}

export class CardVaultError extends Error {}

export class CardVault {
  private readonly ring: KeyRing;

  constructor(private readonly keys: VaultKeys) {
    this.ring = new KeyRing(keys);
  }

  encrypt(plaintext: string, associatedData: string): string {
    return this.ring.encrypt(plaintext, associatedData);
  }

  /** Throws CardVaultError for an unknown format or key id, and when the value does not authenticate. */
  decrypt(ciphertext: string, associatedData: string): string {
    try {
      return this.ring.decrypt(ciphertext, associatedData);
    } catch (error) {
      if (error instanceof KeyRingError) throw new CardVaultError(`vault ${error.message}`);
      throw error;
    }
  }

  fingerprint(plaintext: string): string {
    return createHmac('sha256', this.keys.fingerprint).update(plaintext).digest('base64url');
  }
}
