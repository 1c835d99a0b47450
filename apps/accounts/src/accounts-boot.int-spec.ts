import { DataSource } from 'typeorm';
import Redis from 'ioredis';
import { REVOKED_KEYS_REDIS_KEY } from '@paygrid/contracts';
import { ApiError, createDataSource, REDIS, rowsOf } from '@paygrid/platform';
import { uuidV4 } from '@paygrid/ids';
import { waitFor } from '@paygrid/testing';
import { AccountsService, startAccounts } from './test/accounts-service';
import { anAccount } from './test/fixtures';
import { AccountRepository } from './modules/accounts/account.repository';
import { CredentialService } from './modules/credentials/credential.service';
import { SandboxSeedService } from './modules/seed/sandbox-seed.service';
import { SANDBOX_SEED_DEFAULTS } from './modules/seed/sandbox-seed.defaults';

/**
 * What the accounts service does at boot and what survives a restart, against the real Postgres and
 * Redis (these tests call the services in-process; the app answers no commands, its outbox still
 * publishes to this file's own stack).
 */
let direct: DataSource;
let accounts: AccountsService;

const SEEDED_IDS = Object.values(SANDBOX_SEED_DEFAULTS).map((seeded) => seeded.accountId);
const ip = '203.0.113.5';
const redisOf = (service: AccountsService) => service.app.get<Redis>(REDIS);

beforeAll(async () => {
  accounts = await startAccounts({ consumesCommands: false });
  direct = createDataSource({ url: accounts.database.url, app: 'accounts-it' });
  await direct.initialize();
}, 60_000);

afterAll(async () => {
  if (direct?.isInitialized) await direct.destroy();
  await accounts?.close();
});

async function restart(env: Record<string, string> = {}): Promise<AccountsService> {
  await accounts.restartApp(env);
  return accounts;
}

describe('sandbox seed', () => {
  it('creates the documented master and two sub-accounts, ACTIVE and APPROVED', async () => {
    const rows = await direct.query(
      `SELECT account_id, short_reference_id, parent_account_id, status, verification_status, account_name
       FROM accounts WHERE account_id = ANY($1::uuid[]) ORDER BY short_reference_id`,
      [SEEDED_IDS],
    );
    const { master, sub1, sub2 } = SANDBOX_SEED_DEFAULTS;
    expect(rows).toEqual([
      expect.objectContaining({ account_id: master.accountId, parent_account_id: null, account_name: 'Paygrid Sandbox Master' }),
      expect.objectContaining({ account_id: sub1.accountId, parent_account_id: master.accountId }),
      expect.objectContaining({ account_id: sub2.accountId, parent_account_id: master.accountId }),
    ]);
    for (const row of rows) expect(row).toMatchObject({ status: 'ACTIVE', verification_status: 'APPROVED' });
  });

  it('stays one set of accounts and keys when two seeds run at once', async () => {
    const seed = accounts.app.get(SandboxSeedService);
    const outcomes = await Promise.all([seed.seed(), seed.seed()]);
    for (const outcome of outcomes) expect(Object.values(outcome)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    const [{ accounts: accountCount }] = await direct.query('SELECT count(*)::int AS accounts FROM accounts');
    const [{ keys }] = await direct.query('SELECT count(*)::int AS keys FROM api_credentials');
    expect({ accountCount, keys }).toEqual({ accountCount: 3, keys: 3 });
  });
});

describe('after a restart', () => {
  it('decides a review that was due while the service was down', async () => {
    const accountId = uuidV4();
    await accounts.stopApp();
    const { shortReferenceId: _ref, reviewDueAt: _due, createdAt: _created, updatedAt: _updated, ...pending } = anAccount({
      accountId,
      parentAccountId: SANDBOX_SEED_DEFAULTS.master.accountId,
      status: 'PROCESSING',
      verificationStatus: 'PENDING',
    });
    await new AccountRepository().insert(direct, pending, { reviewDelayMs: 0 });

    await accounts.startApp();
    const decided = await waitFor(
      async () => {
        const [row] = await direct.query('SELECT status, verification_status, review_due_at FROM accounts WHERE account_id = $1', [accountId]);
        return row.status !== 'PROCESSING' ? row : undefined;
      },
      { timeoutMs: 15_000, what: 'the review to be decided after the restart' },
    );
    expect(decided).toEqual({ status: 'ACTIVE', verification_status: 'APPROVED', review_due_at: null });
    const events = await direct.query('SELECT payload FROM outbox WHERE message_key = $1 ORDER BY id', [accountId]);
    expect(events.map((row: { payload: string }) => JSON.parse(row.payload).event_name)).toEqual([
      'account.status.updated',
      'account.verification_status.updated',
    ]);
  });

  it('re-publishes revoked key ids from Postgres into the Redis set', async () => {
    const [{ key_id: keyId }] = rowsOf<{ key_id: string }>(
      await direct.query(`UPDATE api_credentials SET revoked_at = now() WHERE client_id = $1 RETURNING key_id`, [
        SANDBOX_SEED_DEFAULTS.sub2.clientId,
      ]),
    );
    const redis = redisOf(accounts);
    await redis.srem(REVOKED_KEYS_REDIS_KEY, keyId);
    expect(await redis.sismember(REVOKED_KEYS_REDIS_KEY, keyId)).toBe(0);

    const restarted = await restart();
    expect(await redisOf(restarted).sismember(REVOKED_KEYS_REDIS_KEY, keyId)).toBe(1);
  });

  it('replaces a seeded key’s hash when the configured key was rotated', async () => {
    const rotated = 'sk_rotated_master_key_0000000000';
    const restarted = await restart({ SANDBOX_MASTER_API_KEY: rotated });
    const credentials = restarted.app.get(CredentialService);
    const { clientId, apiKey: oldKey } = SANDBOX_SEED_DEFAULTS.master;
    await expect(credentials.verify({ client_id: clientId, api_key: rotated, ip })).resolves.toMatchObject({ client_id: clientId });
    const refused = await credentials.verify({ client_id: clientId, api_key: oldKey, ip }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(401);
  });
});
