import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Card secrets on the bus (architecture rule 7): the gateway seals the card number and CVC with
 * AES-256-GCM under CARD_TRANSPORT_KEY, a key only the card-holding services share, so no Kafka message
 * (and no command-ledger or idempotency record of one) carries them in clear; acquiring opens them in
 * memory. A fresh 96-bit IV per card; the associated data binds the text to this purpose.
 *
 * Format: `v1.<iv>.<tag>.<ciphertext>` (base64url). libs/contracts knows only that it is a string.
 */
export interface CardSecrets {
  card_number: string;
  cvc: string;
}

/** Development default of CARD_TRANSPORT_KEY (gateway and acquiring); refused in production. */
export const DEVELOPMENT_CARD_TRANSPORT_KEY = 'cGF5Z3JpZC1kZXYtY2FyZC10cmFuc3BvcnQta2V5MDE=';

const SEAL_VERSION = 'v1';
const SEAL_AAD = Buffer.from('paygrid.card-transport.v1');

export class CardSealError extends Error {}

export function sealCardSecrets(secrets: CardSecrets, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(SEAL_AAD);
  const body = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return [SEAL_VERSION, ...[iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'))].join(
    '.',
  );
}

/** Throws CardSealError when the value was not sealed with this key or was altered. */
export function openCardSecrets(sealed: string, key: Buffer): CardSecrets {
  const parts = typeof sealed === 'string' ? sealed.split('.') : [];
  if (parts.length !== 4 || parts[0] !== SEAL_VERSION)
    throw new CardSealError('sealed card has an unknown format');
  try {
    const [, iv, tag, body] = parts.map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(SEAL_AAD);
    decipher.setAuthTag(tag);
    const text = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    const value = JSON.parse(text) as Partial<CardSecrets>;
    if (typeof value.card_number !== 'string' || typeof value.cvc !== 'string') {
      throw new CardSealError('sealed card lacks card_number or cvc');
    }
    return { card_number: value.card_number, cvc: value.cvc };
  } catch (error) {
    if (error instanceof CardSealError) throw error;
    throw new CardSealError('sealed card could not be opened with this key');
  }
}
