import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ACQUIRING_CONFIG, AcquiringConfig } from '../../config';

/**
 * The one place a card number is written to storage (architecture rule 7): AES-256-GCM under
 * CARD_ENCRYPTION_KEY with a fresh IV per card and the saved card's id as associated data, so a
 * ciphertext copied onto another row does not open. The fingerprint (HMAC-SHA256 under a key derived
 * from the same secret) lets a customer's duplicate card be recognised without decrypting anything.
 */
const VERSION = 'v1';

@Injectable()
export class CardVault {
  private readonly key: Buffer;
  private readonly fingerprintKey: Buffer;

  constructor(@Inject(ACQUIRING_CONFIG) config: Pick<AcquiringConfig, 'CARD_ENCRYPTION_KEY'>) {
    this.key = config.CARD_ENCRYPTION_KEY;
    this.fingerprintKey = createHmac('sha256', config.CARD_ENCRYPTION_KEY).update('paygrid.card-fingerprint').digest();
  }

  encrypt(pan: string, savedCardId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(savedCardId));
    const body = Buffer.concat([cipher.update(pan, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  decrypt(ciphertext: string, savedCardId: string): string {
    const [version, iv, tag, body] = ciphertext.split('.');
    if (version !== VERSION || !iv || !tag || !body) throw new Error('saved card ciphertext has an unknown format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(savedCardId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  fingerprint(pan: string): string {
    return createHmac('sha256', this.fingerprintKey).update(pan).digest('base64url');
  }
}
