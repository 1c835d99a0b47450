import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { Inject, Injectable } from '@nestjs/common';
import { CardSealError, IssuingSecrets, openIssuingSecrets, sealIssuingSecrets } from '@paygrid/card-crypto';
import { ISSUING_CONFIG, IssuingConfig } from '../../config';

/**
 * Every piece of card cryptography issuing does, behind three small classes so that moving onto the shared
 * card-crypto library (being extracted from libs/contracts) is a change to this one file:
 *
 * - CardSecretVault: card numbers and CVVs at rest. AES-256-GCM, a fresh IV per value, the owning row's id as
 *   associated data (a ciphertext copied onto another row does not open), and the key id in the value
 *   (`v2.<keyId>.<iv>.<tag>.<ciphertext>`, card-crypto's format) so keys rotate: the active key writes, any
 *   retired key still reads. Fingerprints (HMAC-SHA256, their own key, never rotated) find a card by number.
 * - IssuingTransport: secrets on the bus. The gateway seals what the merchant sent (a card number, a PIN, an
 *   activation code) under CARD_TRANSPORT_KEY, and issuing seals the sensitive details it answers with.
 * - SecretHasher: PINs and activation codes, stored only as scrypt hashes with a per-value salt.
 */
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

export class CardVaultError extends Error {}

@Injectable()
export class CardSecretVault {
  private readonly ring = new Map<string, Buffer>();
  private readonly activeKeyId: string;
  private readonly fingerprintKey: Buffer;

  constructor(
    @Inject(ISSUING_CONFIG)
    config: Pick<IssuingConfig, 'ISSUING_CARD_KEY' | 'ISSUING_CARD_KEY_ID' | 'ISSUING_CARD_RETIRED_KEYS' | 'ISSUING_FINGERPRINT_KEY'>,
  ) {
    this.activeKeyId = config.ISSUING_CARD_KEY_ID;
    for (const { id, key } of [{ id: config.ISSUING_CARD_KEY_ID, key: config.ISSUING_CARD_KEY }, ...config.ISSUING_CARD_RETIRED_KEYS]) {
      if (!KEY_ID.test(id)) throw new Error(`card key id ${JSON.stringify(id)} must match ${KEY_ID}`);
      if (key.length !== 32) throw new Error('card keys must be 32 bytes (AES-256)');
      if (!this.ring.has(id)) this.ring.set(id, key);
    }
    this.fingerprintKey = config.ISSUING_FINGERPRINT_KEY;
  }

  encrypt(plaintext: string, associatedData: string): string {
    const key = this.ring.get(this.activeKeyId) as Buffer;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(associatedData));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v2', this.activeKeyId, ...[iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'))].join('.');
  }

  decrypt(ciphertext: string, associatedData: string): string {
    const parts = ciphertext.split('.');
    if (parts.length !== 5 || parts[0] !== 'v2') throw new CardVaultError('vault value has an unknown format');
    const key = this.ring.get(parts[1]);
    if (!key) throw new CardVaultError(`vault value is under key ${parts[1]}, which is not in the ring`);
    const [iv, tag, body] = parts.slice(2).map((part) => Buffer.from(part, 'base64url'));
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(Buffer.from(associatedData));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      throw new CardVaultError('vault value does not open with its key and associated data');
    }
  }

  /** The key id a stored value was written under (for re-encryption after a rotation). */
  keyIdOf(ciphertext: string): string | undefined {
    const parts = ciphertext.split('.');
    return parts[0] === 'v2' ? parts[1] : undefined;
  }

  fingerprint(plaintext: string): string {
    return createHmac('sha256', this.fingerprintKey).update(plaintext).digest('base64url');
  }
}

export class TransportError extends Error {}

@Injectable()
export class IssuingTransport {
  private readonly key: Buffer;

  constructor(@Inject(ISSUING_CONFIG) config: Pick<IssuingConfig, 'CARD_TRANSPORT_KEY'>) {
    this.key = config.CARD_TRANSPORT_KEY;
  }

  seal(secrets: IssuingSecrets): string {
    return sealIssuingSecrets(secrets, this.key);
  }

  /** Throws TransportError when the value was not sealed with the transport key or was altered. */
  open(sealed: string): IssuingSecrets {
    try {
      return openIssuingSecrets(sealed, this.key);
    } catch (error) {
      if (error instanceof CardSealError) throw new TransportError(error.message);
      throw error;
    }
  }
}

const scryptAsync = promisify(scrypt) as (secret: string, salt: Buffer, length: number, options: { N: number; r: number; p: number }) => Promise<Buffer>;
/** scrypt at N = 2^14: about 30 ms per hash here, 16 MiB of memory; a 4–6 digit PIN needs the slowness. */
const SCRYPT = { N: 16_384, r: 8, p: 1 } as const;

@Injectable()
export class SecretHasher {
  async hash(secret: string): Promise<string> {
    const salt = randomBytes(16);
    const hash = await scryptAsync(secret, salt, 32, SCRYPT);
    return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
  }

  async matches(secret: string, stored: string | null): Promise<boolean> {
    const parts = stored?.split('$') ?? [];
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [, n, r, p, salt, expected] = parts;
    const hash = await scryptAsync(secret, Buffer.from(salt, 'base64url'), 32, { N: Number(n), r: Number(r), p: Number(p) });
    const wanted = Buffer.from(expected, 'base64url');
    return wanted.length === hash.length && timingSafeEqual(wanted, hash);
  }
}
