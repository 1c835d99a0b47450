/**
 * @paygrid/envelope-crypto: secrets at rest under rotating keys (AES-256-GCM envelopes that name their key)
 * and the parsing of configured keys. Generic and outside PCI scope: the card vault (libs/card-crypto) is
 * built on it, and so are non-card secrets such as webhook signing secrets.
 */
export { decodeAes256Key, deriveKey } from './aes-key';
export { isEnvelope, KEY_ID_PATTERN, KeyRing, KeyRingError } from './key-ring';
export type { EncryptionKey, KeyRingKeys } from './key-ring';
export { parseRetiredKeys } from './key-list';
