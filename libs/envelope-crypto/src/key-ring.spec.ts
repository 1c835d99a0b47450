import { randomBytes } from 'node:crypto';
import { isEnvelope, KeyRing, KeyRingError } from './key-ring';
import { parseRetiredKeys } from './key-list';

const named = (id: string) => ({ id, key: randomBytes(32) });

describe('KeyRing envelopes', () => {
  const first = named('k1');
  const ring = new KeyRing({ active: first });
  const secret = 'whsec_c2VjcmV0LXZhbHVlLWZvci10ZXN0cw==';

  it('seals a value under the active key, naming it, and opens it back with the same associated data', () => {
    const sealed = ring.encrypt(secret, 'whep_1');
    expect(sealed.startsWith('v2.k1.')).toBe(true);
    expect(sealed).not.toContain('c2VjcmV0');
    expect(isEnvelope(sealed)).toBe(true);
    expect(ring.decrypt(sealed, 'whep_1')).toBe(secret);
    expect(ring.isUnderActiveKey(sealed)).toBe(true);
  });

  it('refuses a value moved to another row, and a clear value, as KeyRingError', () => {
    const sealed = ring.encrypt(secret, 'whep_1');
    expect(() => ring.decrypt(sealed, 'whep_2')).toThrow(KeyRingError);
    expect(() => ring.decrypt(secret, 'whep_1')).toThrow('unknown format');
    expect(isEnvelope(secret)).toBe(false);
    expect(isEnvelope('v2.k1.not.an.envelope')).toBe(false);
  });

  it('rotates: a new active key writes, a retired one still opens, and tells what is left to re-seal', () => {
    const old = ring.encrypt(secret, 'whep_1');
    const rotated = new KeyRing({ active: named('k2'), retired: [first] });
    expect(rotated.decrypt(old, 'whep_1')).toBe(secret);
    expect(rotated.isUnderActiveKey(old)).toBe(false);
    const resealed = rotated.encrypt(rotated.decrypt(old, 'whep_1'), 'whep_1');
    expect(resealed.startsWith('v2.k2.')).toBe(true);
    expect(rotated.isUnderActiveKey(resealed)).toBe(true);
    expect(() => new KeyRing({ active: named('k3') }).decrypt(old, 'whep_1')).toThrow('key k1');
  });

  it('refuses bad key ids and key lengths when the ring is built', () => {
    expect(() => new KeyRing({ active: { id: 'bad id', key: randomBytes(32) } })).toThrow('key id');
    expect(() => new KeyRing({ active: { id: 'k1', key: randomBytes(16) } })).toThrow('32 bytes');
  });

  it('refuses a retired key under the active id (it would shadow the key that writes), but not the same key twice', () => {
    expect(() => new KeyRing({ active: first, retired: [named('k1')] })).toThrow('key id k1 names two different keys');
    const twice = new KeyRing({ active: first, retired: [first] });
    expect(twice.decrypt(twice.encrypt(secret, 'whep_1'), 'whep_1')).toBe(secret);
  });
});

describe('parseRetiredKeys', () => {
  const key = randomBytes(32).toString('base64');

  it('reads id:base64key lists and none', () => {
    expect(parseRetiredKeys('none')).toEqual([]);
    expect(parseRetiredKeys(`k1:${key}, k0:${key}`).map((entry) => entry.id)).toEqual(['k1', 'k0']);
  });

  it('refuses an entry without an id, with a bad id or a bad key', () => {
    expect(() => parseRetiredKeys(key)).toThrow('id:base64key');
    expect(() => parseRetiredKeys(`bad id:${key}`)).toThrow('id:base64key');
    expect(() => parseRetiredKeys('k1:short')).toThrow('32 bytes');
  });
});
