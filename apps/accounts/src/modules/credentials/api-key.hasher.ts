import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API keys are stored only as HMAC-SHA256(pepper, key), hex. Why HMAC with a server pepper rather than
 * a slow per-key-salted hash (scrypt): our keys are 256-bit random strings, so there is nothing to
 * brute-force offline that a work factor would protect, while token issuance and every verify pay the
 * hash on the hot path. The pepper (API_KEY_PEPPER, kept out of the database) means a stolen table
 * alone cannot even confirm a guessed key. Trade-off: rotating the pepper invalidates every key.
 *
 * Comparison is constant-time, and an unknown client id is compared against a dummy hash so the
 * answer takes the same time as a wrong key.
 */
export class ApiKeyHasher {
  /** Compared against when the client id is unknown, so both failures cost one HMAC and one compare. */
  private readonly dummyHash: string;

  constructor(private readonly pepper: string) {
    this.dummyHash = this.hash(randomBytes(32).toString('base64url'));
  }

  hash(apiKey: string): string {
    return createHmac('sha256', this.pepper).update(apiKey, 'utf8').digest('hex');
  }

  /** Constant-time: true only when `apiKey` hashes to `storedHash`; with no stored hash, always false. */
  matches(apiKey: string, storedHash: string | null): boolean {
    const expected = Buffer.from(storedHash ?? this.dummyHash, 'hex');
    const actual = Buffer.from(this.hash(apiKey), 'hex');
    const equal = expected.length === actual.length && timingSafeEqual(expected, actual);
    return equal && storedHash !== null;
  }
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters of [0-9A-Za-z], uniform (rejection sampling avoids modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** A new client id: public, shown in lists and logs. */
export function newClientId(): string {
  return `cli_${randomBase62(20)}`;
}

/** A new API key: 40 base62 characters (≈238 bits) after the `sk_` prefix that marks it as secret. */
export function newApiKey(): string {
  return `sk_${randomBase62(40)}`;
}
