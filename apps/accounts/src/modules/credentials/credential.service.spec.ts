import { DataSource } from 'typeorm';
import { Executor } from '@paygrid/platform';
import { anAccount, refusalFrom } from '../../test/fixtures';
import { AccountRepository } from '../accounts/account.repository';
import { ApiKeyHasher } from './api-key.hasher';
import { Credential } from './credential.types';
import { CredentialRepository, CredentialWithAccount } from './credential.repository';
import { CredentialService } from './credential.service';
import { RevokedKeysSet } from './revoked-keys.set';

const hasher = new ApiKeyHasher('unit-test-pepper-unit-test-pepper');
const API_KEY = 'sk_test_key_0123456789abcdefghij';
const master = anAccount({ accountId: '10000000-0000-4000-8000-000000000000' });

function aCredential(overrides: Partial<CredentialWithAccount> = {}): CredentialWithAccount {
  return {
    keyId: 'key_01TEST',
    clientId: 'cli_test',
    accountId: master.accountId,
    keyHash: hasher.hash(API_KEY),
    ipAllowlist: [],
    permissions: ['sensitive_card_details'],
    label: null,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    revokedAt: null,
    account: { shortReferenceId: 'P000000001', parentAccountId: null, businessCode: ['BANKING'], status: 'ACTIVE' },
    ...overrides,
  };
}

function setup(credential: CredentialWithAccount | null, nodeEnv: 'development' | 'production' = 'development') {
  const credentials = {
    findByClientIdWithAccount: jest.fn().mockResolvedValue(credential),
    revoke: jest.fn(),
    findByKeyOrClientId: jest.fn(),
    insert: jest.fn(),
  };
  const accounts = { findById: jest.fn().mockResolvedValue(master) };
  const revokedKeys = { add: jest.fn().mockResolvedValue(undefined) };
  const dataSource = { transaction: (work: (manager: Executor) => Promise<unknown>) => work({ query: jest.fn() }) };
  const service = new CredentialService(
    dataSource as unknown as DataSource,
    credentials as unknown as CredentialRepository,
    accounts as unknown as AccountRepository,
    hasher,
    revokedKeys as unknown as RevokedKeysSet,
    { NODE_ENV: nodeEnv },
  );
  return { service, credentials, revokedKeys };
}

const refusal = refusalFrom;

const invalid = {
  status: 401,
  body: { type: 'unauthorized_error', code: 'unauthorized_error', message: 'Invalid client id or API key' },
  headers: {},
};

describe('CredentialService.verify', () => {
  it('answers the verified credential for the right key', async () => {
    const { service } = setup(aCredential());
    expect(await service.verify({ client_id: 'cli_test', api_key: API_KEY, ip: '203.0.113.9' })).toEqual({
      key_id: 'key_01TEST',
      client_id: 'cli_test',
      account_id: master.accountId,
      short_reference_id: 'P000000001',
      parent_account_id: '0',
      master_account_id: master.accountId,
      business_codes: ['BANKING'],
      permissions: ['sensitive_card_details'],
      ip_allowlist: [],
    });
  });

  it('names the master as parent for a sub-account’s key', async () => {
    const sub = aCredential({
      accountId: '10000000-0000-4000-8000-000000000001',
      account: { shortReferenceId: 'P2', parentAccountId: master.accountId, businessCode: ['ISSUING'], status: 'ACTIVE' },
    });
    const { service } = setup(sub);
    expect(await service.verify({ client_id: 'cli_test', api_key: API_KEY, ip: '203.0.113.9' })).toMatchObject({
      parent_account_id: master.accountId,
      master_account_id: master.accountId,
    });
  });

  it('answers a wrong key and an unknown client id identically', async () => {
    expect(await refusal(setup(aCredential()).service.verify({ client_id: 'cli_test', api_key: 'sk_wrong', ip: '203.0.113.9' }))).toEqual(invalid);
    expect(await refusal(setup(null).service.verify({ client_id: 'cli_nobody', api_key: API_KEY, ip: '203.0.113.9' }))).toEqual(invalid);
  });

  it('refuses a revoked key', async () => {
    const { service } = setup(aCredential({ revokedAt: new Date() }));
    expect(await refusal(service.verify({ client_id: 'cli_test', api_key: API_KEY, ip: '203.0.113.9' }))).toMatchObject({
      status: 401,
      body: { type: 'unauthorized_error', message: 'API key revoked' },
    });
  });

  it('says "IP not allowed" for a caller outside the allow-list', async () => {
    const { service } = setup(aCredential({ ipAllowlist: ['10.0.0.0/8', '2001:db8::1'] }));
    expect(await refusal(service.verify({ client_id: 'cli_test', api_key: API_KEY, ip: '11.0.0.1' }))).toEqual({
      status: 401,
      body: { type: 'unauthorized_error', code: 'unauthorized_error', message: 'IP not allowed' },
      headers: {},
    });
  });

  it('accepts callers inside a CIDR range, an exact IPv6 address and IPv4-mapped addresses', async () => {
    const { service } = setup(aCredential({ ipAllowlist: ['10.0.0.0/8', '2001:db8::1'] }));
    for (const ip of ['10.20.30.40', '2001:db8::1', '::ffff:10.1.1.1']) {
      await expect(service.verify({ client_id: 'cli_test', api_key: API_KEY, ip })).resolves.toMatchObject({ key_id: 'key_01TEST' });
    }
  });

  it('says nothing about the IP before the key is proven', async () => {
    const { service } = setup(aCredential({ ipAllowlist: ['10.0.0.0/8'] }));
    expect(await refusal(service.verify({ client_id: 'cli_test', api_key: 'sk_wrong', ip: '11.0.0.1' }))).toEqual(invalid);
  });

  it('refuses a key whose account was deactivated', async () => {
    const account = { shortReferenceId: 'P1', parentAccountId: null, businessCode: ['BANKING' as const], status: 'INACTIVE' as const };
    const { service } = setup(aCredential({ account }));
    expect(await refusal(service.verify({ client_id: 'cli_test', api_key: API_KEY, ip: '203.0.113.9' }))).toMatchObject({
      status: 401,
      body: { code: 'user_not_found' },
    });
  });
});

describe('CredentialService.create', () => {
  it('refuses an allow-list entry that is neither an address nor a CIDR range, naming its position', async () => {
    const { service } = setup(null);
    expect(await refusal(service.create({ account_id: master.accountId, ip_allowlist: ['10.0.0.1', '10.0.0.0/33'] }))).toMatchObject({
      status: 400,
      body: { type: 'invalid_request_error', message: 'ip_allowlist[1]: must be an IPv4 or IPv6 address or CIDR range' },
    });
  });

  it('refuses a chosen client id or key in production', async () => {
    const { service } = setup(null, 'production');
    expect(await refusal(service.create({ account_id: master.accountId, client_id: 'mine' }))).toMatchObject({
      status: 400,
      body: { message: 'client_id and api_key can be chosen only outside production (sandbox seed)' },
    });
  });

  it('stores only the hash and returns the clear key once', async () => {
    const { service, credentials } = setup(null);
    credentials.insert.mockImplementation(async (_: Executor, row: Credential) => ({ ...row, createdAt: new Date(), revokedAt: null }));
    const created = await service.create({ account_id: master.accountId, permissions: ['sensitive_card_details'] });
    const stored = credentials.insert.mock.calls[0][1] as Credential;
    expect(created.api_key).toMatch(/^sk_/);
    expect(stored.keyHash).toBe(hasher.hash(created.api_key));
    expect(JSON.stringify(stored)).not.toContain(created.api_key);
  });
});

describe('CredentialService.revoke', () => {
  it('adds the key id to the gateway’s revocation set before answering', async () => {
    const { service, credentials, revokedKeys } = setup(null);
    credentials.revoke.mockResolvedValue(aCredential({ revokedAt: new Date('2026-03-01T00:00:00Z') }));
    const manager = { query: jest.fn() };
    const view = await service.revoke({ key_id: 'key_01TEST' }, manager);
    expect(view.revoked_at).toBe('2026-03-01T00:00:00.000Z');
    expect(revokedKeys.add).toHaveBeenCalledWith(['key_01TEST']);
    const event = manager.query.mock.calls.find(([sql]) => String(sql).includes('INSERT INTO outbox'));
    expect(JSON.parse(event[1][3])).toMatchObject({ event_name: 'account.credential.revoked', event_type: 'OPERATIONS' });
  });

  it('wants exactly one of key_id and client_id', async () => {
    const { service } = setup(null);
    const manager = { query: jest.fn() };
    expect(await refusal(service.revoke({}, manager))).toMatchObject({ body: { message: 'exactly one of key_id and client_id is required' } });
    expect(await refusal(service.revoke({ key_id: 'a', client_id: 'b' }, manager))).toMatchObject({ status: 400 });
  });

  it('answers an unknown key as not found', async () => {
    const { service, credentials } = setup(null);
    credentials.revoke.mockResolvedValue(null);
    credentials.findByKeyOrClientId.mockResolvedValue(null);
    expect(await refusal(service.revoke({ client_id: 'cli_nobody' }, { query: jest.fn() }))).toMatchObject({
      body: { code: 'resource_not_found', message: 'credential not found' },
    });
  });
});
