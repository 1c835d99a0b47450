import { decodeAes256Key } from './aes-key';
import { EncryptionKey, KEY_ID_PATTERN } from './key-ring';

/**
 * Retired keys as configured: `id:base64key,id:base64key` (or `none`). They decrypt what they wrote and
 * never encrypt. A malformed entry is refused at boot, naming the rule.
 */
export function parseRetiredKeys(raw: string): EncryptionKey[] {
  if (raw.trim() === 'none' || raw.trim() === '') return [];
  return raw.split(',').map((entry) => {
    const [id, key, ...rest] = entry.trim().split(':');
    if (!id || !key || rest.length > 0 || !KEY_ID_PATTERN.test(id)) {
      throw new Error('must be a list of id:base64key (ids of [A-Za-z0-9_-], at most 32), or none');
    }
    return { id, key: decodeAes256Key(key) };
  });
}
