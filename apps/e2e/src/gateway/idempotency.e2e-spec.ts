import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { waitFor } from '@paygrid/testing';
import { api, SANDBOX, tokenFor } from '../support/api-client';
import { queryE2eDatabase } from '../support/databases';
import { companySubAccount } from '../support/fixtures';
import { KafkaNames } from '@paygrid/platform';
import { BusCapture } from '../support/bus-capture';
import { killApp, pauseApp, resumeApp, startAppAgain } from '../support/stack-control';
import { e2eInfrastructure, e2eKafkaPrefix } from '../support/stack-settings';

/**
 * Idempotency as decisions §3 defines it, against the running stack: replay byte for byte, every
 * mismatch refused with its code, 100 concurrent requests with one key creating one object, a record
 * lost from Redis answered by the service's command ledger, and a gateway killed mid-request whose
 * retry completes the original instead of doubling it.
 */
const CREATE = '/v1/accounts/create_accounts';

/** The gateway's record of a key, in the e2e stack's Redis (apps/gateway idempotency.store.ts). */
async function onIdempotencyRecord<T>(key: string, use: (redis: Redis, redisKey: string) => Promise<T>): Promise<T> {
  const redis = new Redis(e2eInfrastructure().redisUrl);
  try {
    return await use(redis, `paygrid:idempotency:${key}`);
  } finally {
    redis.disconnect();
  }
}
const idempotencyRecord = (key: string) => onIdempotencyRecord(key, (redis, redisKey) => redis.hgetall(redisKey));
const deleteIdempotencyRecord = (key: string) => onIdempotencyRecord(key, (redis, redisKey) => redis.del(redisKey));

async function accountsNamed(nickname: string): Promise<number> {
  const rows = await queryE2eDatabase<{ n: number }>('paygrid_accounts', 'SELECT count(*)::int AS n FROM accounts WHERE nickname = $1', [
    nickname,
  ]);
  return rows[0].n;
}

describe('idempotency', () => {
  let token: string;
  beforeAll(async () => {
    token = await tokenFor(SANDBOX.master);
  });

  it('replays the stored response byte for byte with x-idempotent-replayed and runs nothing twice', async () => {
    const key = randomUUID();
    const nickname = `Replay ${key.slice(0, 8)}`;
    const first = await api('POST', CREATE, { token, body: companySubAccount(nickname), idempotencyKey: key });
    const second = await api('POST', CREATE, { token, body: companySubAccount(nickname), idempotencyKey: key });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(first.headers.get('x-idempotent-replayed')).toBeNull();
    expect(second.headers.get('x-idempotent-replayed')).toBe('true');
    expect(await accountsNamed(nickname)).toBe(1);
  });

  it('answers a retry whose record Redis lost from the service command ledger, running nothing twice', async () => {
    const key = randomUUID();
    const nickname = `Lost ${key.slice(0, 8)}`;
    const first = await api('POST', CREATE, { token, body: companySubAccount(nickname), idempotencyKey: key });
    expect(first.status).toBe(200);
    await deleteIdempotencyRecord(key); // a flush, a failover that lost the write
    const retry = await api('POST', CREATE, { token, body: companySubAccount(nickname), idempotencyKey: key });
    expect(retry.status).toBe(200);
    // The same result; not the same bytes: the ledger keeps replies as jsonb, which orders their keys anew.
    expect(retry.body).toEqual(first.body);
    expect(await accountsNamed(nickname)).toBe(1);
  });

  it('refuses the same key from another account and with another body', async () => {
    const key = randomUUID();
    const body = companySubAccount(`Mismatch ${key.slice(0, 8)}`);
    expect((await api('POST', CREATE, { token, body, idempotencyKey: key })).status).toBe(200);

    const otherAccount = await api('POST', CREATE, { token: await tokenFor(SANDBOX.sub1), body, idempotencyKey: key });
    expect(otherAccount.status).toBe(400);
    expect(otherAccount.body).toMatchObject({ type: 'idempotency_error', code: 'key_mismatch_account' });

    const onBehalf = await api('POST', CREATE, {
      token,
      body,
      idempotencyKey: key,
      headers: { 'x-on-behalf-of': SANDBOX.sub1.accountId },
    });
    expect(onBehalf.body).toMatchObject({ type: 'idempotency_error', code: 'key_mismatch_account' });

    const otherBody = await api('POST', CREATE, { token, body: { ...body, nickname: 'changed' }, idempotencyKey: key });
    expect(otherBody.status).toBe(400);
    expect(otherBody.body).toMatchObject({ type: 'idempotency_error', code: 'key_mismatch_params' });
  });

  it('refuses the same key on another endpoint with key_mismatch_api', async () => {
    const key = randomUUID();
    expect((await api('POST', CREATE, { token, body: companySubAccount(`Api ${key.slice(0, 8)}`), idempotencyKey: key })).status).toBe(200);
    const elsewhere = await api('POST', '/v1/diagnostics/echo', { token, body: {}, idempotencyKey: key });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toMatchObject({ type: 'idempotency_error', code: 'key_mismatch_api' });
  });

  it('keys a request by its path without the query string', async () => {
    const key = randomUUID();
    const nickname = `Api ${key.slice(0, 8)}`;
    expect((await api('POST', CREATE, { token, body: companySubAccount(nickname), idempotencyKey: key })).status).toBe(200);
    const withQuery = await api('POST', `/v1/accounts/create_accounts?x=1`, {
      token,
      body: companySubAccount(nickname),
      idempotencyKey: key,
    });
    // The query string is not part of the path: same path, same body, so this is a replay.
    expect(withQuery.headers.get('x-idempotent-replayed')).toBe('true');
    expect((await idempotencyRecord(key)).path).toBe('/api/v1/accounts/create_accounts');
  });

  it('answers invalid_key_format for a key that is not a uuid, and requires a key on POST', async () => {
    const invalid = await api('POST', CREATE, { token, body: companySubAccount('Bad key'), idempotencyKey: 'not-a-uuid' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ type: 'idempotency_error', code: 'invalid_key_format' });
    const missing = await api('POST', CREATE, { token, body: companySubAccount('No key'), idempotencyKey: null });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ type: 'idempotency_error', code: 'invalid_key_format' });
  });

  it('stores nothing for a request refused by validation, so the corrected retry runs', async () => {
    const key = randomUUID();
    const nickname = `Corrected ${key.slice(0, 8)}`;
    const invalid = await api('POST', CREATE, { token, body: { ...companySubAccount(nickname), entity_type: 'ROBOT' }, idempotencyKey: key });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ type: 'invalid_request_error' });
    const corrected = await api('POST', CREATE, { token, body: companySubAccount(nickname), idempotencyKey: key });
    expect(corrected.status).toBe(200);
    expect(await accountsNamed(nickname)).toBe(1);
  });

  it('creates exactly one object from 100 concurrent requests with one key', async () => {
    const key = randomUUID();
    const nickname = `Concurrent ${key.slice(0, 8)}`;
    const responses = await Promise.all(
      Array.from({ length: 100 }, () => api<{ account_id?: string; message?: string }>('POST', CREATE, {
        token,
        body: companySubAccount(nickname),
        idempotencyKey: key,
      })),
    );
    const created = responses.filter((response) => response.status === 200);
    const processing = responses.filter((response) => response.status === 400);
    expect(created.length + processing.length).toBe(100);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((response) => response.body.account_id)).size).toBe(1);
    for (const response of processing) {
      expect(response.body).toMatchObject({ type: 'idempotency_error', code: 'request_being_processed' });
      expect(response.body.message).toContain('request is processing');
    }
    expect(await accountsNamed(nickname)).toBe(1);
  });

  it('completes the original operation when the gateway dies after sending the command', async () => {
    const key = randomUUID();
    const nickname = `Crash ${key.slice(0, 8)}`;
    // The barrier: accounts is frozen, so the command waits on its topic until the test lets it go, and
    // the gateway is killed with the command sent and no reply possible (no race with a fast service).
    const capture = await BusCapture.start([new KafkaNames(e2eKafkaPrefix()).commandTopic('accounts')]);
    pauseApp('accounts');
    try {
      const inFlight = api('POST', CREATE, { token, body: companySubAccount(nickname), idempotencyKey: key }).catch(() => undefined);
      await waitFor(
        () => capture.messages().some((message) => (message.value as { payload?: { nickname?: string } }).payload?.nickname === nickname),
        { what: 'the gateway to send the command' },
      );
      await killApp('gateway');
      await inFlight;
    } finally {
      resumeApp('accounts');
      await capture.stop();
    }
    // Still processing: locked, no response stored.
    const record = await idempotencyRecord(key);
    expect(record.locked_until).toBeDefined();
    expect(record.status).toBeUndefined();
    await startAppAgain('gateway');

    const final = await waitFor(
      async () => {
        const retry = await api<{ account_id: string }>('POST', CREATE, { token, body: companySubAccount(nickname), idempotencyKey: key });
        return retry.status === 200 ? retry : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500, what: 'the retry to complete the original request' },
    );
    expect(final.body.account_id).toBeTruthy();
    expect(await accountsNamed(nickname)).toBe(1);
  });
});
