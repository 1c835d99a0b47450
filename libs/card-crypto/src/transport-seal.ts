import { isEnvelope, KeyRing } from '@paygrid/envelope-crypto';

/**
 * Card secrets on the bus (architecture rule 7): the gateway seals the card number and CVC with
 * AES-256-GCM under CARD_TRANSPORT_KEY, a key only the card-holding services share, so no Kafka message
 * (and no command-ledger or idempotency record of one) carries them in clear; acquiring opens them in
 * memory. A fresh 96-bit IV per card; the associated data binds the text to this purpose.
 *
 * Format: `v1.<iv>.<tag>.<ciphertext>` (base64url), the unnamed envelope of libs/envelope-crypto. libs/contracts
 * knows only that it is a string.
 */
export interface CardSecrets {
  card_number: string;
  cvc: string;
}

/** Development default of CARD_TRANSPORT_KEY (gateway and acquiring); refused in production. */
export const DEVELOPMENT_CARD_TRANSPORT_KEY = 'cGF5Z3JpZC1kZXYtY2FyZC10cmFuc3BvcnQta2V5MDE=';

const SEAL_VERSION = 'v1';
const SEAL_AAD = 'paygrid.card-transport.v1';

export class CardSealError extends Error {}

export function sealCardSecrets(secrets: CardSecrets, key: Buffer): string {
  return transportRing(key).encrypt(JSON.stringify(secrets), SEAL_AAD);
}

/** Throws CardSealError when the value was not sealed with this key or was altered. */
export function openCardSecrets(sealed: string, key: Buffer): CardSecrets {
  if (typeof sealed !== 'string' || !isEnvelope(sealed) || !sealed.startsWith(`${SEAL_VERSION}.`)) {
    throw new CardSealError('sealed card has an unknown format');
  }
  let text: string;
  try {
    text = transportRing(key).decrypt(sealed, SEAL_AAD);
  } catch {
    throw new CardSealError('sealed card could not be opened with this key');
  }
  let value: Partial<CardSecrets>;
  try {
    value = JSON.parse(text) as Partial<CardSecrets>;
  } catch {
    throw new CardSealError('sealed card could not be opened with this key');
  }
  if (typeof value.card_number !== 'string' || typeof value.cvc !== 'string') {
    throw new CardSealError('sealed card lacks card_number or cvc');
  }
  return { card_number: value.card_number, cvc: value.cvc };
}

/** The transport key as an unnamed key ring: its envelopes are the `v1` format above. */
function transportRing(key: Buffer): KeyRing {
  return new KeyRing({ active: { id: null, key } });
}
