/**
 * @paygrid/card-crypto: the cryptography of card data (architecture rule 7), for the services that
 * hold card data (gateway, acquiring, issuing) and no one else (a lint rule enforces it): sealing card
 * secrets for the bus, and the vault that keeps them at rest (built on libs/envelope-crypto, whose key
 * helpers it re-exports for its users).
 */
export { decodeAes256Key, deriveKey } from '@paygrid/envelope-crypto';
export {
  CardSealError,
  DEVELOPMENT_CARD_TRANSPORT_KEY,
  openCardSecrets,
  sealCardSecrets,
} from './transport-seal';
export type { CardSecrets } from './transport-seal';
export { CardVault, CardVaultError } from './card-vault';
export type { VaultKey, VaultKeys } from './card-vault';
export { openIssuingSecrets, sealIssuingSecrets } from './issuing-secrets';
export type { IssuingSecrets } from './issuing-secrets';
