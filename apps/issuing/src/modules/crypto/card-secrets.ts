import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { Inject, Injectable } from '@nestjs/common';
import { CardSealError, CardVault, IssuingSecrets, openIssuingSecrets, sealIssuingSecrets } from '@paygrid/card-crypto';
import { ISSUING_CONFIG, IssuingConfig } from '../../config';

export { CardVaultError } from '@paygrid/card-crypto';

/**
 * Every piece of card cryptography issuing does, behind three small classes:
 *
 * - CardSecretVault: card numbers and CVVs at rest (and decision endpoints' signing secrets), on the card vault of
 *   libs/card-crypto, itself the envelopes of libs/envelope-crypto: AES-256-GCM, a fresh IV per value, the owning
 *   row's id as associated data (a ciphertext copied onto another row does not open), and the key id in the value
 *   (`v2.<keyId>.<iv>.<tag>.<ciphertext>`, base64url parts: the format issuing always wrote, so stored rows open
 *   unchanged) so keys rotate: the active key writes, any retired key still reads. Fingerprints (HMAC-SHA256,
 *   their own key, never rotated) find a card by number.
 * - IssuingTransport: secrets on the bus. The gateway seals what the merchant sent (a card number, a PIN, an
 *   activation code) under CARD_TRANSPORT_KEY, and issuing seals the sensitive details it answers with.
 * - SecretHasher: PINs and activation codes, stored only as scrypt hashes with a per-value salt.
 */
@Injectable()
export class CardSecretVault extends CardVault {
  constructor(
    @Inject(ISSUING_CONFIG)
    config: Pick<IssuingConfig, 'ISSUING_CARD_KEY' | 'ISSUING_CARD_KEY_ID' | 'ISSUING_CARD_RETIRED_KEYS' | 'ISSUING_FINGERPRINT_KEY'>,
  ) {
    super({
      active: { id: config.ISSUING_CARD_KEY_ID, key: config.ISSUING_CARD_KEY },
      retired: config.ISSUING_CARD_RETIRED_KEYS,
      fingerprint: config.ISSUING_FINGERPRINT_KEY,
    });
  }

  /** The key id a stored value was written under (for re-encryption after a rotation). */
  keyIdOf(ciphertext: string): string | undefined {
    const [version, keyId] = ciphertext.split('.');
    return version === 'v2' ? keyId : undefined;
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
