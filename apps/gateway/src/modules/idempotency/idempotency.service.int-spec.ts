import { createHash, randomBytes, randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import pino from 'pino';
import { ApiError, RedisScripts } from '@paygrid/platform';
import { testRedisUrl } from '@paygrid/testing';
import { commandIdFor, IdempotencyService } from './idempotency.service';
import { IdempotencyStore, redisKeyOf } from './idempotency.store';
import { GatewayConfig } from '../../config';

/** The idempotency rules of decisions §3 against the real Redis, one rule per test. */
describe('IdempotencyService', () => {
  let redis: Redis;
  let scripts: RedisScripts;
  let service: IdempotencyService;
  const account = randomUUID();
  const request = (key: string, overrides: Partial<{ accountId: string; method: string; path: string; body: unknown }> = {}) => ({
    key,
    accountId: account,
    method: 'POST',
    path: '/api/v1/things',
    body: { amount: '10.00', currency: 'USD' },
    ...overrides,
  });
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).body;
  };
  /** Claims a key and returns what the interceptor keeps to settle it. */
  const executing = async (key: string, overrides: Parameters<typeof request>[1] = {}) => {
    const claim = await service.claim(request(key, overrides));
    if (claim.kind !== 'execute') throw new Error(`expected to execute, got ${claim.kind}`);
    return claim.owner;
  };

  beforeAll(async () => {
    redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: 2 });
    scripts = RedisScripts.connect(testRedisUrl(), 'idempotency-it', pino({ level: 'silent' }));
    await scripts.whenConnected();
    const config = { COMMAND_TIMEOUT_MS: 200, IDEMPOTENCY_RETENTION_HOURS: 24, CARD_TRANSPORT_KEY: randomBytes(32) } as GatewayConfig;
    service = new IdempotencyService(new IdempotencyStore(scripts), config);
  });

  afterAll(async () => {
    redis?.disconnect();
    await scripts?.close();
  });

  it('lets the first request execute with the command id derived from account and key', async () => {
    const key = randomUUID();
    expect(await service.claim(request(key))).toMatchObject({ kind: 'execute', commandId: commandIdFor(account, key) });
  });

  it('answers request_being_processed while the first holds the key', async () => {
    const key = randomUUID();
    await service.claim(request(key));
    expect(await refusal(service.claim(request(key)))).toMatchObject({ code: 'request_being_processed' });
  });

  it('lets exactly one of many concurrent claims of a key execute', async () => {
    const key = randomUUID();
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => service.claim(request(key)).catch((error: unknown) => error)));
    expect(outcomes.filter((outcome) => !(outcome instanceof ApiError))).toHaveLength(1);
  });

  it('replays a completed response', async () => {
    const key = randomUUID();
    await service.complete(key, await executing(key), 200, '{"id":"thing_1"}');
    expect(await service.claim(request(key))).toEqual({ kind: 'replay', status: 200, body: '{"id":"thing_1"}' });
  });

  it('replays a stored refusal with its status', async () => {
    const key = randomUUID();
    await service.complete(key, await executing(key), 400, '{"code":"refused"}');
    expect(await service.claim(request(key))).toEqual({ kind: 'replay', status: 400, body: '{"code":"refused"}' });
  });

  it('treats bodies with the same content in another key order as the same request', async () => {
    const key = randomUUID();
    await service.complete(key, await executing(key, { body: { a: 1, b: { c: 2, d: 3 } } }), 200, '{}');
    expect((await service.claim(request(key, { body: { b: { d: 3, c: 2 }, a: 1 } }))).kind).toBe('replay');
  });

  it('refuses another path or method with key_mismatch_api', async () => {
    const key = randomUUID();
    await service.claim(request(key));
    expect(await refusal(service.claim(request(key, { path: '/api/v1/other' })))).toMatchObject({ code: 'key_mismatch_api' });
    expect(await refusal(service.claim(request(key, { method: 'GET' })))).toMatchObject({ code: 'key_mismatch_api' });
  });

  it('refuses another account with key_mismatch_account and another body with key_mismatch_params', async () => {
    const key = randomUUID();
    await service.claim(request(key));
    expect(await refusal(service.claim(request(key, { accountId: randomUUID() })))).toMatchObject({ code: 'key_mismatch_account' });
    expect(await refusal(service.claim(request(key, { body: { amount: '11.00' } })))).toMatchObject({ code: 'key_mismatch_params' });
  });

  it('refuses another body even once the holder released the key', async () => {
    const key = randomUUID();
    await service.release(key, await executing(key));
    expect(await refusal(service.claim(request(key, { body: { amount: '11.00' } })))).toMatchObject({ code: 'key_mismatch_params' });
  });

  it('hands a released key to the retry with the original command id', async () => {
    const key = randomUUID();
    await service.release(key, await executing(key));
    expect(await service.claim(request(key))).toMatchObject({ kind: 'execute', commandId: commandIdFor(account, key) });
    expect(await refusal(service.claim(request(key)))).toMatchObject({ code: 'request_being_processed' });
  });

  it('lets a retry take over a key whose holder died once its lock expires', async () => {
    const key = randomUUID();
    await service.claim(request(key));
    const redisNow = Number((await redis.time())[0]) * 1000;
    await redis.hset(redisKeyOf(key), 'locked_until', redisNow - 1000);
    expect(await service.claim(request(key))).toMatchObject({ kind: 'execute', commandId: commandIdFor(account, key) });
  });

  it('frees a key under which nothing ran', async () => {
    const key = randomUUID();
    await service.forget(key, await executing(key));
    expect(await redis.exists(redisKeyOf(key))).toBe(0);
    expect((await service.claim(request(key, { body: { corrected: true } }))).kind).toBe('execute');
  });

  it('lets a record expire with the retention period, counted from the claim', async () => {
    const key = randomUUID();
    await service.complete(key, await executing(key), 200, '{}');
    const ttl = await redis.pttl(redisKeyOf(key));
    expect(ttl).toBeGreaterThan(23 * 3600 * 1000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600 * 1000);
    await redis.del(redisKeyOf(key)); // what the expiry does
    expect((await service.claim(request(key, { body: { other: true } }))).kind).toBe('execute');
  });

  it('does not re-create a record Redis lost, nor settle one another request claimed since', async () => {
    const key = randomUUID();
    const first = await executing(key);
    await redis.del(redisKeyOf(key));
    await service.complete(key, first, 200, '{"first":true}');
    expect(await redis.exists(redisKeyOf(key))).toBe(0);

    await executing(key, { body: { second: true } });
    await service.complete(key, first, 200, '{"first":true}');
    await service.forget(key, first);
    expect(await refusal(service.claim(request(key, { body: { second: true } })))).toMatchObject({ code: 'request_being_processed' });
  });

  it('stores no request body, only its keyed hash', async () => {
    const key = randomUUID();
    const body = { payment_method: { card: { card_number: '4242424242424242', cvc: '123' } } };
    await executing(key, { body });
    const stored = await redis.hgetall(redisKeyOf(key));
    expect(JSON.stringify(stored)).not.toContain('4242424242424242');
    const unkeyed = createHash('sha256').update('{"payment_method":{"card":{"card_number":"4242424242424242","cvc":"123"}}}').digest('hex');
    expect(stored.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.hash).not.toBe(unkeyed);
  });
});
