import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest under keys that rotate: AES-256-GCM with a fresh 96-bit IV per value and the owning row's
 * id as associated data, so a ciphertext copied onto another row does not open. Each value is an envelope
 * naming the key that sealed it, `v2.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts), so a ring of keys
 * opens every value any of them wrote while only the active key writes. A key without an id writes and
 * reads the original unnamed format `v1.<iv>.<tag>.<ciphertext>` (kept for values written before key ids).
 *
 * Rotation: add the new key as active, keep the old one in `retired`; new values go under the new key and
 * old ones still open. `isUnderActiveKey` tells a re-encryption job what is left to rewrite; once nothing
 * is, the retired key can leave the ring.
 */
export interface EncryptionKey {
  /** Null for the unnamed key of `v1` values; otherwise a short token ([A-Za-z0-9_-], at most 32). */
  id: string | null;
  key: Buffer;
}

export interface KeyRingKeys {
  active: EncryptionKey;
  /** Keys that no longer write but must still open what they wrote. */
  retired?: readonly EncryptionKey[];
}

export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

export class KeyRingError extends Error {}

interface Envelope {
  keyId: string | null;
  iv: Buffer;
  tag: Buffer;
  body: Buffer;
}

export class KeyRing {
  private readonly ring = new Map<string | null, Buffer>();

  constructor(private readonly keys: KeyRingKeys) {
    for (const { id, key } of [keys.active, ...(keys.retired ?? [])]) {
      if (id !== null && !KEY_ID_PATTERN.test(id)) {
        throw new Error(`key id ${JSON.stringify(id)} must match ${KEY_ID_PATTERN}`);
      }
      if (key.length !== 32) throw new Error('keys must be 32 bytes (AES-256)');
      // Two keys under one id cannot both open what names it: the later one would shadow the active key,
      // and values it writes would not open. The same key listed twice is harmless.
      const known = this.ring.get(id);
      if (known && !known.equals(key)) throw new Error(`key id ${id ?? '(unnamed)'} names two different keys`);
      this.ring.set(id, key);
    }
  }

  get activeKeyId(): string | null {
    return this.keys.active.id;
  }

  encrypt(plaintext: string, associatedData: string): string {
    const { id, key } = this.keys.active;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(associatedData));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'));
    return id === null ? ['v1', ...parts].join('.') : ['v2', id, ...parts].join('.');
  }

  /** Throws KeyRingError for an unknown format or key id, and when the value does not authenticate. */
  decrypt(ciphertext: string, associatedData: string): string {
    const envelope = parseEnvelope(ciphertext);
    const key = this.ring.get(envelope.keyId);
    if (!key) {
      throw new KeyRingError(`value is under key ${envelope.keyId ?? '(unnamed)'}, which is not in the ring`);
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, envelope.iv);
      decipher.setAAD(Buffer.from(associatedData));
      decipher.setAuthTag(envelope.tag);
      return Buffer.concat([decipher.update(envelope.body), decipher.final()]).toString('utf8');
    } catch {
      throw new KeyRingError('value does not open with its key and associated data');
    }
  }

  /** Whether the value was sealed by the active key (false for anything else, not-an-envelope included). */
  isUnderActiveKey(ciphertext: string): boolean {
    return isEnvelope(ciphertext) && parseEnvelope(ciphertext).keyId === this.keys.active.id;
  }
}

/** Whether a stored value has the shape of an envelope (a clear value written before encryption does not). */
export function isEnvelope(value: string): boolean {
  try {
    parseEnvelope(value);
    return true;
  } catch {
    return false;
  }
}

function parseEnvelope(value: string): Envelope {
  const parts = value.split('.');
  const named = parts[0] === 'v2' && parts.length === 5 && KEY_ID_PATTERN.test(parts[1]);
  const unnamed = parts[0] === 'v1' && parts.length === 4;
  if (!named && !unnamed) throw new KeyRingError('value has an unknown format');
  const [iv, tag, body] = parts.slice(named ? 2 : 1).map((part) => Buffer.from(part, 'base64url'));
  if (iv.length !== 12 || tag.length !== 16) throw new KeyRingError('value has an unknown format');
  return { keyId: named ? parts[1] : null, iv, tag, body };
}
