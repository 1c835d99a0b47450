import { randomBytes, randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import pino from 'pino';
import { REVOKED_KEYS_REDIS_KEY } from '@paygrid/contracts';
import { RedisScripts } from '@paygrid/platform';
import { testRedisUrl } from '@paygrid/testing';
import { GatewayConfig } from '../../config';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { IdempotencyStore, redisKeyOf } from '../idempotency/idempotency.store';
import { RequestAdmission } from './request-admission';

/** The authentication round trip that may carry the idempotency claim, against the real Redis. */
describe('RequestAdmission', () => {
  let redis: Redis;
  let scripts: RedisScripts;
  let admission: RequestAdmission;
  let idempotency: IdempotencyService;
  const revokedKeyId = `key_${randomUUID()}`;
  const prepared = (key: string, accountId = randomUUID()) =>
    idempotency.prepare({ key, accountId, method: 'POST', path: '/api/v1/diagnostics/echo', body: {} });

  beforeAll(async () => {
    redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: 2 });
    scripts = RedisScripts.connect(testRedisUrl(), 'request-admission-it', pino({ level: 'silent' }));
    await scripts.whenConnected();
    admission = new RequestAdmission(scripts);
    const config = { COMMAND_TIMEOUT_MS: 200, IDEMPOTENCY_RETENTION_HOURS: 24, CARD_TRANSPORT_KEY: randomBytes(32) } as GatewayConfig;
    idempotency = new IdempotencyService(new IdempotencyStore(scripts), config);
    await redis.sadd(REVOKED_KEYS_REDIS_KEY, revokedKeyId);
  });

  afterAll(async () => {
    await redis?.srem(REVOKED_KEYS_REDIS_KEY, revokedKeyId);
    redis?.disconnect();
    await scripts?.close();
  });

  it('counts the account\'s requests and answers revocation without a claim', async () => {
    const account = randomUUID();
    const first = await admission.admit(`key_${randomUUID()}`, account, 100);
    const second = await admission.admit(revokedKeyId, account, 100);
    expect(first).toEqual({ revoked: false, requestsThisSecond: 1, claim: undefined });
    expect(second.revoked).toBe(true);
    expect(second.requestsThisSecond).toBeGreaterThanOrEqual(2);
  });

  it('claims the key in the same round trip, with the record the interceptor\'s own claim would write', async () => {
    const claim = prepared(randomUUID());
    const admitted = await admission.admit(`key_${randomUUID()}`, claim.owner.accountId, 100, claim.record);
    expect(admitted.claim).toEqual({ kind: 'claimed' });
    expect(idempotency.decide(claim, admitted.claim!)).toEqual({ kind: 'execute', commandId: claim.record.commandId, owner: claim.owner });
    const stored = await redis.hgetall(redisKeyOf(claim.record.key));
    expect(stored).toMatchObject({ account: claim.owner.accountId, hash: claim.owner.requestHash, command: claim.record.commandId });
    expect(await redis.pttl(redisKeyOf(claim.record.key))).toBeGreaterThan(0);
    // A duplicate through either path finds the first holding the key.
    await expect(idempotency.claim({ key: claim.record.key, accountId: claim.owner.accountId, method: 'POST', path: '/api/v1/diagnostics/echo', body: {} }))
      .rejects.toMatchObject({ body: { code: 'request_being_processed' } });
  });

  it('writes no claim for a revoked key nor over the rate limit', async () => {
    const revoked = prepared(randomUUID());
    expect((await admission.admit(revokedKeyId, revoked.owner.accountId, 100, revoked.record)).claim).toBeUndefined();
    const limited = prepared(randomUUID());
    const over = await admission.admit(`key_${randomUUID()}`, limited.owner.accountId, 0, limited.record);
    expect(over).toEqual({ revoked: false, requestsThisSecond: 1, claim: undefined });
    expect(await redis.exists(redisKeyOf(revoked.record.key))).toBe(0);
    expect(await redis.exists(redisKeyOf(limited.record.key))).toBe(0);
  });

  it('lets exactly one of many concurrent admissions of a key claim it', async () => {
    const claim = prepared(randomUUID());
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () => admission.admit(`key_${randomUUID()}`, claim.owner.accountId, 1_000_000, claim.record)),
    );
    expect(outcomes.filter((outcome) => outcome.claim?.kind === 'claimed')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.claim?.kind === 'held')).toHaveLength(49);
  });

  it('answers 401 at once when Redis cannot be asked', async () => {
    // Nothing listens on port 1: the connection never becomes ready, and the scripts connection keeps no
    // offline queue, so the admission fails without waiting for a reconnection.
    const unreachable = RedisScripts.connect('redis://127.0.0.1:1', 'request-admission-it-down', pino({ level: 'silent' }));
    await expect(new RequestAdmission(unreachable).admit('key', randomUUID(), 100)).rejects.toMatchObject({
      status: 401,
      body: { message: 'token dependencies unavailable' },
    });
    await unreachable.close();
  });
});
