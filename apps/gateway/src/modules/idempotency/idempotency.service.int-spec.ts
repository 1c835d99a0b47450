import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import pino from 'pino';
import { ApiError, createDataSource } from '@paygrid/platform';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { IdempotencyRecords1710000000000 } from '../../migrations/1710000000000-idempotency-records';
import { IdempotencyRepository } from './idempotency.repository';
import { commandIdFor, IdempotencyService } from './idempotency.service';
import { GatewayConfig } from '../../config';

/** The idempotency rules of decisions §3 against the real Postgres, one rule per test. */
describe('IdempotencyService', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
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

  beforeAll(async () => {
    database = await createTestDatabase('idempotency');
    dataSource = createDataSource({ url: database.url, app: 'idempotency-test', migrations: [IdempotencyRecords1710000000000] });
    await dataSource.initialize();
    await dataSource.runMigrations();
    const config = { COMMAND_TIMEOUT_MS: 200, IDEMPOTENCY_RETENTION_HOURS: 24 } as GatewayConfig;
    service = new IdempotencyService(new IdempotencyRepository(dataSource), config, pino({ level: 'silent' }));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('lets the first request execute with the command id derived from account and key', async () => {
    const key = randomUUID();
    expect(await service.claim(request(key))).toEqual({ kind: 'execute', commandId: commandIdFor(account, key) });
  });

  it('answers request_being_processed while the first holds the key', async () => {
    const key = randomUUID();
    await service.claim(request(key));
    expect(await refusal(service.claim(request(key)))).toMatchObject({ code: 'request_being_processed' });
  });

  it('replays a completed response', async () => {
    const key = randomUUID();
    await service.claim(request(key));
    await service.complete(key, 200, '{"id":"thing_1"}');
    expect(await service.claim(request(key))).toEqual({ kind: 'replay', status: 200, body: '{"id":"thing_1"}' });
  });

  it('treats bodies with the same content in another key order as the same request', async () => {
    const key = randomUUID();
    await service.claim(request(key, { body: { a: 1, b: { c: 2, d: 3 } } }));
    await service.complete(key, 200, '{}');
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

  it('hands a released key to the retry with the original command id', async () => {
    const key = randomUUID();
    await service.claim(request(key));
    await service.release(key);
    expect(await service.claim(request(key))).toEqual({ kind: 'execute', commandId: commandIdFor(account, key) });
  });

  it('lets a retry take over a key whose holder died once its lock expires', async () => {
    const key = randomUUID();
    await service.claim(request(key));
    await dataSource.query("UPDATE idempotency_records SET locked_until = now() - interval '1 second' WHERE idempotency_key = $1", [key]);
    expect((await service.claim(request(key))).kind).toBe('execute');
  });

  it('forgets records older than the retention period', async () => {
    const key = randomUUID();
    await service.claim(request(key));
    await service.complete(key, 200, '{}');
    await dataSource.query("UPDATE idempotency_records SET created_at = now() - interval '25 hours' WHERE idempotency_key = $1", [key]);
    expect((await service.claim(request(key, { body: { other: true } }))).kind).toBe('execute');
  });
});
