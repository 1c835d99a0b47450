import { createHash, createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { commandIdFor, hashBody, requestHashKey } from './idempotency.service';

/**
 * Records and command ids outlive a deploy (24 h in Redis, and the services' ledgers): a retry reaching a gateway
 * of the next release must derive the same command id and request hash, whatever crypto call computes them.
 */
describe('idempotency digests stay the same across releases', () => {
  it('derives the command id as sha256(account \\n key), hex, 40 characters', () => {
    const expected = `cmd_${createHash('sha256').update('acc_1\n0b9a3f8e-5a3c-4c47-9d0e-2f7c8b1d6e5a').digest('hex').slice(0, 40)}`;
    expect(commandIdFor('acc_1', '0b9a3f8e-5a3c-4c47-9d0e-2f7c8b1d6e5a')).toBe(expected);
  });

  it('hashes the canonical body with the same HMAC whether the key is a Buffer or a KeyObject', () => {
    const key = requestHashKey(randomBytes(32));
    const body = { b: [1, { d: 'x', c: null }], a: '10.00', skipped: undefined };
    const expected = createHmac('sha256', key).update('{"a":"10.00","b":[1,{"c":null,"d":"x"}]}').digest('hex');
    expect(hashBody(body, key)).toBe(expected);
    expect(hashBody(body, createSecretKey(key))).toBe(expected);
  });
});
