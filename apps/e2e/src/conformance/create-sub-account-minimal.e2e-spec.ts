import { randomUUID } from 'node:crypto';
import { api, SANDBOX, tokenFor } from '../support/api-client';

/**
 * Issue 13 item 1 (wire-compat §10.3): `company_info` and `individual_info` are optional on
 * `POST /v1/accounts/create_accounts`. The SDK's minimal create sends `{business_type, entity_type, nickname,
 * inherit}`; the new COMPANY sub-account takes its master's profile. Only a COMPANY that refuses the
 * master's profile (`inherit: -1`) must bring its own company_info.
 */
interface CreatedView {
  account_id: string;
  short_reference_id: string;
  status: string;
  business_type: string;
  entity_type: string;
  nickname: string;
}
interface AccountView {
  account_id: string;
  email: string;
  country: string;
  account_name: string;
  nickname: string;
  contact_details: Record<string, unknown>;
}

describe('create sub-account with the SDK’s minimal body', () => {
  let master: string;
  beforeAll(async () => {
    master = await tokenFor(SANDBOX.master);
  });

  it('creates a COMPANY sub-account from {business_type, entity_type, nickname, inherit} with the master’s profile', async () => {
    const nickname = `Minimal ${randomUUID().slice(0, 8)}`;
    const created = await api<CreatedView>('POST', '/v1/accounts/create_accounts', {
      token: master,
      body: { business_type: 'ACQUIRING', entity_type: 'COMPANY', nickname, inherit: 1 },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      account_id: expect.any(String),
      short_reference_id: expect.any(String),
      status: 'PROCESSING',
      business_type: 'ACQUIRING',
      entity_type: 'COMPANY',
      nickname,
    });

    const [account, masterAccount] = await Promise.all(
      [created.body.account_id, SANDBOX.master.accountId].map((id) =>
        api<AccountView>('GET', `/v1/accounts/${id}`, { token: master }),
      ),
    );
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({
      nickname,
      email: masterAccount.body.email,
      country: masterAccount.body.country,
      account_name: masterAccount.body.account_name,
      contact_details: masterAccount.body.contact_details,
    });
  });

  it('requires company_info from a COMPANY that refuses the master’s profile, and stores nothing', async () => {
    const nickname = `No inherit ${randomUUID().slice(0, 8)}`;
    const refused = await api('POST', '/v1/accounts/create_accounts', {
      token: master,
      body: { business_type: 'ACQUIRING', entity_type: 'COMPANY', nickname, inherit: -1 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      type: 'invalid_request_error',
      code: 'invalid_request_error',
      message: 'company_info: is required when entity_type is COMPANY and inherit is -1',
    });
    const page = await api<{ data: AccountView[] }>('GET', '/v1/accounts?page_size=100', { token: master });
    expect(page.body.data.filter((account) => account.nickname === nickname)).toEqual([]);
  });
});
