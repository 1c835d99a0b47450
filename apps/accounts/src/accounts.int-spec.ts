import { randomUUID } from 'node:crypto';
import {
  AccountCommand,
  AccountPage,
  AccountView,
  AdditionalDocument,
  CreatedCredential,
  CreatedSubAccountView,
  CredentialCommand,
  CredentialView,
  REVOKED_KEYS_REDIS_KEY,
  ResolvedAccount,
  VerifiedCredential,
} from '@paygrid/contracts';
import Redis from 'ioredis';
import { REDIS } from '@paygrid/platform';
import { actorOf, refusalOf, resultOf, waitFor } from '@paygrid/testing';
import { AccountsService, insertFamily, startAccounts } from './test/accounts-service';
import { companyBody } from './test/fixtures';
import { SANDBOX_SEED_DEFAULTS } from './modules/seed/sandbox-seed.defaults';

/**
 * The accounts service end to end over the real Kafka broker (on this file's own stack of topics, see
 * ServiceHarness), against its own throwaway database on the real Postgres and the real Redis.
 */
let accounts: AccountsService;

beforeAll(async () => {
  accounts = await startAccounts();
}, 120_000);

afterAll(async () => {
  await accounts?.close();
});

const accountNotFound = {
  status: 400,
  body: { type: 'invalid_request_error', code: 'account_not_found', message: 'account not found or deactivated' },
};

async function retrieve(actorId: string, masterId: string, accountId: string) {
  return accounts.send<AccountView>(AccountCommand.retrieve.type, { account_id: accountId }, { actor: actorOf(actorId, masterId) });
}

async function outboxOf(sourceId: string): Promise<{ event_name: string; event_type: string; data: AccountView }[]> {
  const rows: { payload: string }[] = await accounts.dataSource.query('SELECT payload FROM outbox WHERE message_key = $1 ORDER BY id', [
    sourceId,
  ]);
  return rows.map((row) => JSON.parse(row.payload));
}

describe('visibility between a master and its sub-accounts', () => {
  it('lists a master first, then its sub-accounts in creation order', async () => {
    const family = await insertFamily(accounts.dataSource);
    const page = resultOf(
      await accounts.send<AccountPage>(AccountCommand.list.type, { page_size: 10, page_number: 1 }, { actor: actorOf(family.master) }),
    );
    expect(page.total_items).toBe(3);
    expect(page.total_pages).toBe(1);
    expect(page.data.map((account) => account.account_id)).toEqual([family.master, family.sub, family.sibling]);
  });

  it('lists only itself to a sub-account', async () => {
    const family = await insertFamily(accounts.dataSource);
    const page = resultOf(
      await accounts.send<AccountPage>(AccountCommand.list.type, { page_size: 10, page_number: 1 }, { actor: actorOf(family.sub, family.master) }),
    );
    expect(page).toMatchObject({ total_items: 1, total_pages: 1 });
    expect(page.data.map((account) => account.account_id)).toEqual([family.sub]);
  });

  it('answers a sub-account asking for its master or a sibling exactly like an unknown id', async () => {
    const family = await insertFamily(accounts.dataSource);
    for (const target of [family.master, family.sibling, randomUUID()]) {
      expect(refusalOf(await retrieve(family.sub, family.master, target))).toEqual(accountNotFound);
    }
    expect(resultOf(await retrieve(family.master, family.master, family.sibling)).account_id).toBe(family.sibling);
  });

  it('never lets a sub-account act for its master or a sibling, but lets the master act for it', async () => {
    const family = await insertFamily(accounts.dataSource);
    for (const target of [family.master, family.sibling]) {
      const reply = await accounts.send(AccountCommand.resolveOnBehalfOf.type, { target_account_id: target }, { actor: actorOf(family.sub, family.master) });
      expect(refusalOf(reply).body).toMatchObject({ code: 'sub_account_not_found' });
    }
    const resolved = resultOf(
      await accounts.send<ResolvedAccount>(AccountCommand.resolveOnBehalfOf.type, { target_account_id: family.sub }, { actor: actorOf(family.master) }),
    );
    expect(resolved).toMatchObject({ account_id: family.sub, master_account_id: family.master });
  });

  it('answers a malformed payload with invalid_request_error naming the field', async () => {
    const family = await insertFamily(accounts.dataSource);
    const reply = await accounts.send(AccountCommand.list.type, { page_size: 5, page_number: 1 }, { actor: actorOf(family.master) });
    expect(refusalOf(reply)).toEqual({
      status: 400,
      body: { type: 'invalid_request_error', code: 'invalid_request_error', message: 'page_size: must not be less than 10' },
    });
  });
});

describe('creating a sub-account', () => {
  it('answers PROCESSING, then the review makes it ACTIVE and APPROVED, with all three events in the outbox', async () => {
    const family = await insertFamily(accounts.dataSource);
    const created = resultOf(
      await accounts.send<CreatedSubAccountView>(AccountCommand.createSubAccount.type, companyBody(), {
        actor: actorOf(family.master),
        commandId: randomUUID(),
      }),
    );
    expect(created).toMatchObject({ status: 'PROCESSING', business_type: 'ACQUIRING', entity_type: 'COMPANY', nickname: 'Shop One' });
    expect(resultOf(await retrieve(family.master, family.master, created.account_id))).toMatchObject({
      status: 'PROCESSING',
      verification_status: 'PENDING',
    });

    const reviewed = await waitFor(
      async () => {
        const account = resultOf(await retrieve(family.master, family.master, created.account_id));
        return account.status === 'ACTIVE' ? account : undefined;
      },
      { timeoutMs: 15_000, what: 'the sandbox review to approve the account' },
    );
    expect(reviewed).toMatchObject({ verification_status: 'APPROVED', review_reason: '' });

    const events = await outboxOf(created.account_id);
    expect(events.map((event) => [event.event_name, event.event_type])).toEqual([
      ['account.created', 'ONBOARDING'],
      ['account.status.updated', 'ONBOARDING'],
      ['account.verification_status.updated', 'ONBOARDING'],
    ]);
    expect(events[0].data).toMatchObject({ account_id: created.account_id, status: 'PROCESSING' });
    expect(events[2].data).toMatchObject({ status: 'ACTIVE', verification_status: 'APPROVED' });

    // The relay publishes them, in order, on the accounts events topic of this test's stack.
    const reader = await accounts.events();
    const published = await reader.until((event) => event.source_id === created.account_id, {
      count: 3,
      what: 'account events on the stack topic',
    });
    expect(published.map((event) => event.event_id)).toEqual(
      (await accounts.dataSource.query('SELECT event_id FROM outbox WHERE message_key = $1 ORDER BY id', [created.account_id])).map(
        (row: { event_id: string }) => row.event_id,
      ),
    );
  });

  it('rejects the account in review when its nickname contains REJECT, with a reason', async () => {
    const family = await insertFamily(accounts.dataSource);
    const created = resultOf(
      await accounts.send<CreatedSubAccountView>(AccountCommand.createSubAccount.type, companyBody({ nickname: 'please REJECT' }), {
        actor: actorOf(family.master),
        commandId: randomUUID(),
      }),
    );
    const reviewed = await waitFor(
      async () => {
        const account = resultOf(await retrieve(family.master, family.master, created.account_id));
        return account.status !== 'PROCESSING' ? account : undefined;
      },
      { timeoutMs: 15_000, what: 'the sandbox review to decide' },
    );
    expect(reviewed).toMatchObject({
      status: 'INACTIVE',
      verification_status: 'REJECT',
      review_reason: 'Sandbox review rejected the account: its nickname contains "REJECT"',
    });
  });

  it('creates one account for the same command_id sent twice, and answers both with the same reply', async () => {
    const family = await insertFamily(accounts.dataSource);
    const commandId = randomUUID();
    const send = () =>
      accounts.send<CreatedSubAccountView>(AccountCommand.createSubAccount.type, companyBody({ nickname: 'Twice' }), {
        actor: actorOf(family.master),
        commandId,
      });
    const [first, second] = await Promise.all([send(), send()]);
    const third = await send();
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    const [{ count }] = await accounts.dataSource.query(
      `SELECT count(*)::int AS count FROM accounts WHERE parent_account_id = $1 AND nickname = 'Twice'`,
      [family.master],
    );
    expect(count).toBe(1);
  });

  it('refuses a sub-account that tries to create a sub-account', async () => {
    const family = await insertFamily(accounts.dataSource);
    const reply = await accounts.send(AccountCommand.createSubAccount.type, companyBody(), {
      actor: actorOf(family.sub, family.master),
      commandId: randomUUID(),
    });
    expect(refusalOf(reply)).toMatchObject({ status: 400, body: { type: 'account_error', code: 'master_account_required' } });
  });

  it('names the broken field of an invalid body', async () => {
    const family = await insertFamily(accounts.dataSource);
    const body = companyBody();
    (body.company_info as Record<string, unknown>).email_address = 'nope';
    const reply = await accounts.send(AccountCommand.createSubAccount.type, body, { actor: actorOf(family.master), commandId: randomUUID() });
    expect(refusalOf(reply).body).toEqual({
      type: 'invalid_request_error',
      code: 'invalid_request_error',
      message: 'company_info.email_address: must be an email',
    });
  });
});

describe('additional documents', () => {
  it('answers a bare array for a country and business line', async () => {
    const reply = await accounts.send<AdditionalDocument[]>(AccountCommand.getAdditional.type, { country: 'SG', business_code: 'ACQUIRING' }, {
      actor: actorOf(SANDBOX_SEED_DEFAULTS.master.accountId),
    });
    expect(resultOf(reply)).toContainEqual({ profile_key: 'ACRA_BIZFILE', profile_name: 'ACRA BizFile business profile', profile_option: 1 });
  });
});

describe('credentials', () => {
  const master = SANDBOX_SEED_DEFAULTS.master;
  const verify = (payload: { client_id: string; api_key: string; ip: string }) =>
    accounts.send<VerifiedCredential>(CredentialCommand.verify.type, payload, { actor: null });
  const createKey = async (payload: Record<string, unknown>) =>
    resultOf(await accounts.send<CreatedCredential>(CredentialCommand.create.type, payload, { actor: null }));

  it('verifies the seeded master key with its sensitive-card-details permission', async () => {
    const verified = resultOf(await verify({ client_id: master.clientId, api_key: master.apiKey, ip: '203.0.113.5' }));
    expect(verified).toMatchObject({
      account_id: master.accountId,
      short_reference_id: master.shortReferenceId,
      parent_account_id: '0',
      permissions: ['sensitive_card_details'],
    });
  });

  it('verifies a seeded sub-account key with its master as parent', async () => {
    const sub = SANDBOX_SEED_DEFAULTS.sub1;
    const verified = resultOf(await verify({ client_id: sub.clientId, api_key: sub.apiKey, ip: '203.0.113.5' }));
    expect(verified).toMatchObject({ account_id: sub.accountId, parent_account_id: master.accountId, master_account_id: master.accountId });
  });

  it('answers a wrong key and an unknown client id with the same 401', async () => {
    const expected = { status: 401, body: { type: 'unauthorized_error', code: 'unauthorized_error', message: 'Invalid client id or API key' } };
    expect(refusalOf(await verify({ client_id: master.clientId, api_key: 'sk_wrong_key_000000000000', ip: '203.0.113.5' }))).toEqual(expected);
    expect(refusalOf(await verify({ client_id: 'cli_nobody_at_all', api_key: master.apiKey, ip: '203.0.113.5' }))).toEqual(expected);
  });

  it('refuses a caller outside the key’s allow-list with "IP not allowed"', async () => {
    const created = await createKey({ account_id: master.accountId, ip_allowlist: ['10.0.0.0/8', '2001:db8::1'], label: 'office' });
    const attempt = (ip: string) => verify({ client_id: created.client_id, api_key: created.api_key, ip });
    expect(refusalOf(await attempt('192.168.1.1'))).toEqual({
      status: 401,
      body: { type: 'unauthorized_error', code: 'unauthorized_error', message: 'IP not allowed' },
    });
    expect(resultOf(await attempt('10.1.2.3')).key_id).toBe(created.key_id);
    expect(resultOf(await attempt('2001:db8::1')).key_id).toBe(created.key_id);
  });

  it('refuses a revoked key at once and puts its id in the gateway’s Redis set', async () => {
    const created = await createKey({ account_id: SANDBOX_SEED_DEFAULTS.sub2.accountId });
    expect(resultOf(await verify({ client_id: created.client_id, api_key: created.api_key, ip: '203.0.113.5' })).key_id).toBe(created.key_id);

    const revoked = resultOf(
      await accounts.send<CredentialView>(CredentialCommand.revoke.type, { client_id: created.client_id }, { actor: null, commandId: randomUUID() }),
    );
    expect(revoked.revoked_at).not.toBeNull();
    expect(await accounts.app.get<Redis>(REDIS).sismember(REVOKED_KEYS_REDIS_KEY, created.key_id)).toBe(1);
    expect(refusalOf(await verify({ client_id: created.client_id, api_key: created.api_key, ip: '203.0.113.5' }))).toMatchObject({
      status: 401,
      body: { message: 'API key revoked' },
    });
    const events = await accounts.dataSource.query(`SELECT payload FROM outbox WHERE message_key = $1 ORDER BY id`, [created.key_id]);
    expect(events.map((row: { payload: string }) => JSON.parse(row.payload).event_name)).toEqual([
      'account.credential.created',
      'account.credential.revoked',
    ]);
  });

  it('stores a key only as its hash: the clear key is in no table, event or stored reply', async () => {
    const created = await createKey({ account_id: master.accountId, permissions: ['sensitive_card_details'] });
    await accounts.send(CredentialCommand.revoke.type, { key_id: created.key_id }, { actor: null, commandId: randomUUID() });
    const tables: { table_name: string }[] = await accounts.dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    expect(tables.map((table) => table.table_name)).toEqual(expect.arrayContaining(['api_credentials', 'outbox', 'processed_commands']));
    for (const { table_name } of tables) {
      const [{ found }] = await accounts.dataSource.query(
        `SELECT count(*)::int AS found FROM "${table_name}" t WHERE t::text LIKE '%' || $1 || '%'`,
        [created.api_key],
      );
      expect({ table: table_name, found }).toEqual({ table: table_name, found: 0 });
    }
    for (const seeded of Object.values(SANDBOX_SEED_DEFAULTS)) {
      const [{ found }] = await accounts.dataSource.query(
        `SELECT count(*)::int AS found FROM api_credentials t WHERE t::text LIKE '%' || $1 || '%'`,
        [seeded.apiKey],
      );
      expect(found).toBe(0);
    }
  });

  it('lists an account’s keys without any secret', async () => {
    const listed = resultOf(
      await accounts.send<CredentialView[]>(CredentialCommand.list.type, { account_id: SANDBOX_SEED_DEFAULTS.sub1.accountId }, { actor: null }),
    );
    expect(listed.map((credential) => credential.client_id)).toContain(SANDBOX_SEED_DEFAULTS.sub1.clientId);
    for (const credential of listed) {
      expect(Object.keys(credential).sort()).toEqual(
        ['account_id', 'client_id', 'created_at', 'ip_allowlist', 'key_id', 'label', 'permissions', 'revoked_at'].sort(),
      );
    }
  });
});
