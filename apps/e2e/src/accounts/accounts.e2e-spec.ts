import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '@paygrid/testing';
import { api, SANDBOX, tokenFor } from '../support/api-client';
import { queryE2eDatabase } from '../support/databases';
import { companySubAccount } from '../support/fixtures';
import { E2E_LOG_DIRECTORY } from '../support/stack-settings';

/**
 * Connected accounts through the gateway (spec 4.8–4.10, wire-compat §10): shapes, validation with
 * field paths, onboarding from PROCESSING/PENDING to ACTIVE/APPROVED, and the isolation rule: a
 * sub-account's key never lists, retrieves or acts for its master or a sibling.
 */
interface AccountView {
  account_id: string;
  short_reference_id: string;
  business_code: string[];
  status: string;
  verification_status: string;
  entity_type: string;
  representatives?: Record<string, unknown>[];
}
interface Page<T> {
  total_pages: number;
  total_items: number;
  data: T[];
}

describe('accounts', () => {
  let master: string;
  let sub1: string;
  beforeAll(async () => {
    master = await tokenFor(SANDBOX.master);
    sub1 = await tokenFor(SANDBOX.sub1);
  });

  it('lists a master and its sub-accounts with the pagination shape', async () => {
    const page = await api<Page<AccountView>>('GET', '/v1/accounts?page_size=10&page_number=1', { token: master });
    expect(page.status).toBe(200);
    expect(Object.keys(page.body).sort()).toEqual(['data', 'total_items', 'total_pages']);
    expect(page.body.data[0].account_id).toBe(SANDBOX.master.accountId);
    const ids = page.body.data.map((account) => account.account_id);
    expect(ids).toEqual(expect.arrayContaining([SANDBOX.sub1.accountId, SANDBOX.sub2.accountId]));
    expect(page.body.total_pages).toBe(Math.ceil(page.body.total_items / 10));
    expect(Array.isArray(page.body.data[0].business_code)).toBe(true);
  });

  it('applies the defaults when the SDK sends no pagination, and refuses out-of-range values', async () => {
    expect((await api('GET', '/v1/accounts', { token: master })).status).toBe(200);
    const small = await api('GET', '/v1/accounts?page_size=5', { token: master });
    expect(small.status).toBe(400);
    expect(small.body).toEqual({ type: 'invalid_request_error', code: 'invalid_request_error', message: 'page_size: must not be less than 10' });
    const zero = await api('GET', '/v1/accounts?page_number=0', { token: master });
    expect(zero.body).toMatchObject({ message: 'page_number: must not be less than 1' });
    const letters = await api('GET', '/v1/accounts?page_size=ten', { token: master });
    expect(letters.body).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('page_size') });
  });

  it('retrieves an account and refuses a non-uuid id or unknown business_code with the field named', async () => {
    const account = await api<AccountView>('GET', `/v1/accounts/${SANDBOX.sub1.accountId}`, { token: master });
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ account_id: SANDBOX.sub1.accountId, status: 'ACTIVE', verification_status: 'APPROVED' });
    const badId = await api('GET', '/v1/accounts/not-a-uuid', { token: master });
    expect(badId.body).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(/^id: /) });
    const badCode = await api('GET', `/v1/accounts/${SANDBOX.sub1.accountId}?business_code=SHOPPING`, { token: master });
    expect(badCode.body).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(/^business_code: /) });
  });

  it('answers account_not_found for an unknown id exactly as for another account', async () => {
    const unknown = await api('GET', `/v1/accounts/${randomUUID()}`, { token: master });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ type: 'invalid_request_error', code: 'account_not_found' });
    const foreign = await api('GET', `/v1/accounts/${SANDBOX.master.accountId}`, { token: sub1 });
    expect(foreign.body).toEqual(unknown.body);
  });

  it('never lets a sub-account list, retrieve or act for its master or a sibling', async () => {
    const list = await api<Page<AccountView>>('GET', '/v1/accounts', { token: sub1 });
    expect(list.body.data.map((account) => account.account_id)).toEqual([SANDBOX.sub1.accountId]);
    for (const other of [SANDBOX.master.accountId, SANDBOX.sub2.accountId]) {
      const retrieve = await api('GET', `/v1/accounts/${other}`, { token: sub1 });
      expect(retrieve.body).toMatchObject({ code: 'account_not_found' });
      const actFor = await api('GET', '/v1/accounts', { token: sub1, headers: { 'x-on-behalf-of': other } });
      expect(actFor.status).toBe(400);
      expect(actFor.body).toMatchObject({ code: 'sub_account_not_found' });
      const createFor = await api('POST', '/v1/accounts/create_accounts', {
        token: sub1,
        body: companySubAccount('Not allowed'),
        headers: { 'x-on-behalf-of': other },
      });
      expect(createFor.body).toMatchObject({ code: 'sub_account_not_found' });
    }
  });

  it('lets a master act for its sub-account, which then sees only itself', async () => {
    const list = await api<Page<AccountView>>('GET', '/v1/accounts', {
      token: master,
      headers: { 'x-on-behalf-of': SANDBOX.sub2.accountId },
    });
    expect(list.status).toBe(200);
    expect(list.body.data.map((account) => account.account_id)).toEqual([SANDBOX.sub2.accountId]);
    const notUuid = await api('GET', '/v1/accounts', { token: master, headers: { 'x-on-behalf-of': 'sub-2' } });
    expect(notUuid.body).toMatchObject({ type: 'invalid_request_error' });
    const stranger = await api('GET', '/v1/accounts', { token: master, headers: { 'x-on-behalf-of': randomUUID() } });
    expect(stranger.body).toMatchObject({ code: 'sub_account_not_found' });
  });

  it('creates a sub-account that starts PROCESSING/PENDING and is approved by the sandbox review', async () => {
    const nickname = `Onboarding ${randomUUID().slice(0, 8)}`;
    const created = await api<{ account_id: string; short_reference_id: string; status: string; entity_type: string }>(
      'POST',
      '/v1/accounts/create_accounts',
      { token: master, body: companySubAccount(nickname) },
    );
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: 'PROCESSING', entity_type: 'COMPANY' });
    expect(created.body.short_reference_id).toBeTruthy();
    const approved = await waitFor(async () => {
      const account = await api<AccountView>('GET', `/v1/accounts/${created.body.account_id}`, { token: master });
      return account.body.status === 'ACTIVE' ? account.body : undefined;
    }, { what: 'the sandbox review to approve the account' });
    expect(approved.verification_status).toBe('APPROVED');
    const events = await waitFor(async () => {
      const rows = await queryE2eDatabase<{ event_name: string; event_type: string }>(
        'paygrid_webhooks',
        'SELECT event_name, event_type FROM webhook_events WHERE source_id = $1 ORDER BY created_at',
        [created.body.account_id],
      );
      return rows.length >= 3 ? rows : undefined;
    }, { what: 'the onboarding events at the dispatcher' });
    expect(events.map((event) => event.event_name)).toEqual(
      expect.arrayContaining(['account.created', 'account.status.updated', 'account.verification_status.updated']),
    );
    expect(events.every((event) => event.event_type === 'ONBOARDING')).toBe(true);
  });

  it('rejects a sub-account in review when its name contains REJECT, with a reason', async () => {
    const created = await api<{ account_id: string }>('POST', '/v1/accounts/create_accounts', {
      token: master,
      body: companySubAccount(`REJECT ${randomUUID().slice(0, 8)}`),
    });
    const rejected = await waitFor(async () => {
      const account = await api<AccountView & { review_reason: string }>('GET', `/v1/accounts/${created.body.account_id}`, { token: master });
      return account.body.verification_status === 'REJECT' ? account.body : undefined;
    }, { what: 'the sandbox review to reject the account' });
    expect(rejected.status).toBe('INACTIVE');
    expect(rejected.review_reason).not.toBe('');
  });

  it('names the broken field of an invalid create body and creates nothing', async () => {
    const body = companySubAccount('Broken');
    (body.company_info as Record<string, unknown>).email_address = 'not-an-email';
    const response = await api('POST', '/v1/accounts/create_accounts', { token: master, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      type: 'invalid_request_error',
      code: 'invalid_request_error',
      message: 'company_info.email_address: must be an email',
    });
    const unknownField = await api('POST', '/v1/accounts/create_accounts', { token: master, body: { ...companySubAccount('Extra'), surprise: 1 } });
    expect(unknownField.body).toMatchObject({ message: 'surprise: is not an accepted field' });
  });

  it('refuses a body that mixes the two variants at the edge, so the corrected retry with the same key runs', async () => {
    const key = randomUUID();
    const nickname = `Variant ${key.slice(0, 8)}`;
    const mixed = { ...companySubAccount(nickname), individual_info: { first_name_english: 'Jane' } };
    const refused = await api('POST', '/v1/accounts/create_accounts', { token: master, body: mixed, idempotencyKey: key });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringContaining('individual_info: is not allowed when entity_type is COMPANY'),
    });
    const corrected = await api('POST', '/v1/accounts/create_accounts', { token: master, body: companySubAccount(nickname), idempotencyKey: key });
    expect(corrected.status).toBe(200);
  });

  it('answers the additional documents of a country as a bare array, and validates the query', async () => {
    const documents = await api<{ profile_key: string; profile_name: string; profile_option: number }[]>(
      'GET',
      '/v1/accounts/get_additional?country=SG&business_code=ACQUIRING',
      { token: master },
    );
    expect(documents.status).toBe(200);
    expect(Array.isArray(documents.body)).toBe(true);
    expect(documents.body.length).toBeGreaterThan(0);
    for (const document of documents.body) {
      expect(Object.keys(document).sort()).toEqual(['profile_key', 'profile_name', 'profile_option']);
      expect([0, 1]).toContain(document.profile_option);
    }
    const bad = await api('GET', '/v1/accounts/get_additional?country=Singapore&business_code=ACQUIRING', { token: master });
    expect(bad.body).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(/^country: /) });
  });

  it('never writes an API key in clear to the accounts database or any service log', async () => {
    const keyRows = await queryE2eDatabase<{ dump: string }>('paygrid_accounts', 'SELECT row_to_json(c)::text AS dump FROM api_credentials c');
    expect(keyRows.length).toBeGreaterThan(0);
    for (const account of Object.values(SANDBOX)) {
      expect(keyRows.some((row) => row.dump.includes(account.apiKey))).toBe(false);
    }
    for (const app of ['gateway', 'accounts']) {
      const log = readFileSync(path.join(E2E_LOG_DIRECTORY, `${app}.log`), 'utf8');
      for (const account of Object.values(SANDBOX)) expect(log.includes(account.apiKey)).toBe(false);
    }
  });
});
