import { createHmac } from 'node:crypto';

/**
 * AES-256 keys as they are configured (CARD_TRANSPORT_KEY, CARD_ENCRYPTION_KEY, issuing's vault keys,
 * WEBHOOK_SECRETS_KEY): base64 of exactly 32 bytes. A malformed key is refused at boot, naming the rule, never used.
 */
export function decodeAes256Key(raw: string): Buffer {
  if (!/^[A-Za-z0-9+/]{43}=$/.test(raw))
    throw new Error('must be 32 bytes in base64 (44 characters ending in =)');
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new Error('must decode to exactly 32 bytes');
  return key;
}

/** A key for another purpose derived from a configured secret (HMAC-SHA256 under a fixed label). */
export function deriveKey(secret: Buffer, label: string): Buffer {
  return createHmac('sha256', secret).update(label).digest();
}
