/**
 * Issuing's card secrets on the bus (architecture rule 7): sealed with the card transport's AES-256-GCM
 * under CARD_TRANSPORT_KEY, held only by the services that hold card data.
 */
import { CardSealError, openCardSecrets, sealCardSecrets } from './transport-seal';

/**
 * The secrets the gateway seals for issuing (and issuing for the gateway), as one JSON object: each command
 * names the fields it needs.
 */
export interface IssuingSecrets {
  card_number?: string;
  cvv?: string;
  pin?: string;
  activation_code?: string;
}

/**
 * Seals issuing secrets for the bus under CARD_TRANSPORT_KEY (held by the gateway, acquiring and issuing), in
 * the card transport's format: AES-256-GCM, fresh IV, `v1.<iv>.<tag>.<ciphertext>`.
 */
export function sealIssuingSecrets(secrets: IssuingSecrets, key: Buffer): string {
  return sealCardSecrets({ card_number: JSON.stringify(secrets), cvc: '' }, key);
}

/** Throws CardSealError when the value was not sealed with this key, was altered or holds no object. */
export function openIssuingSecrets(sealed: string, key: Buffer): IssuingSecrets {
  let value: unknown;
  try {
    value = JSON.parse(openCardSecrets(sealed, key).card_number);
  } catch (error) {
    if (error instanceof CardSealError) throw error;
    throw new CardSealError('sealed issuing secrets are not JSON');
  }
  if (typeof value !== 'object' || value === null) throw new CardSealError('sealed issuing secrets are not an object');
  return value as IssuingSecrets;
}
