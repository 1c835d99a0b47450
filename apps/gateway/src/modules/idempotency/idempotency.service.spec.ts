import { createHash, createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { GatewayConfig } from '../../config';
import { commandIdFor, hashBody, IdempotencyService, requestHashKey } from './idempotency.service';
import { IdempotencyStore } from './idempotency.store';

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

  it('prepares the same record for an empty body as for any other (the empty body hash is made once)', () => {
    const transportKey = randomBytes(32);
    const config = {
      COMMAND_TIMEOUT_MS: 200,
      IDEMPOTENCY_RETENTION_HOURS: 24,
      CARD_TRANSPORT_KEY: transportKey,
    } as GatewayConfig;
    const service = new IdempotencyService({} as IdempotencyStore, config);
    const request = {
      key: '0b9a3f8e-5a3c-4c47-9d0e-2f7c8b1d6e5a',
      accountId: 'acc_1',
      method: 'POST',
      path: '/api/v1/things',
    };
    const emptyHash = createHmac('sha256', requestHashKey(transportKey)).update('{}').digest('hex');
    for (const body of [undefined, null, {}, { skipped: undefined }]) {
      expect(service.prepare({ ...request, body })).toEqual({
        owner: { accountId: 'acc_1', method: 'POST', path: '/api/v1/things', requestHash: emptyHash },
        record: {
          accountId: 'acc_1',
          method: 'POST',
          path: '/api/v1/things',
          requestHash: emptyHash,
          key: request.key,
          commandId: commandIdFor('acc_1', request.key),
          lockMs: 2200,
          retentionMs: 24 * 3600 * 1000,
        },
      });
    }
    const body = { amount: '10.00' };
    expect(service.prepare({ ...request, body }).owner.requestHash).toBe(
      hashBody(body, requestHashKey(transportKey)),
    );
  });
});
