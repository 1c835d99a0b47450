import { randomUUID } from 'node:crypto';
import { api, SANDBOX, tokenFor } from '../support/api-client';

/**
 * Issue 13 item 10 (spec 5): `x-on-behalf-of` is checked with one uuid rule (libs/ids) by the gateway and
 * the accounts service. Any well-formed uuid that names no sub-account of the caller, whatever its version,
 * is `sub_account_not_found`; only a value that is not a uuid at all is a validation error.
 */
describe('x-on-behalf-of uuid rule', () => {
  let master: string;
  beforeAll(async () => {
    master = await tokenFor(SANDBOX.master);
  });

  const actingFor = (value: string) =>
    api('GET', '/v1/accounts', { token: master, headers: { 'x-on-behalf-of': value } });

  it.each([
    ['a v1 uuid', 'c232ab00-9414-11ec-b3c8-9f6bdeced846'],
    ['a v7 uuid', '01936b2e-1e85-7000-8000-000000000001'],
    ['the nil uuid', '00000000-0000-0000-0000-000000000000'],
    ['an unknown v4 uuid', randomUUID()],
  ])('answers sub_account_not_found for %s', async (_case, value) => {
    const { status, body } = await actingFor(value);
    const notFound = {
      type: 'invalid_request_error',
      code: 'sub_account_not_found',
      message: 'on-behalf-of account not found or deactivated',
    };
    expect({ status, body }).toEqual({ status: 400, body: notFound });
  });

  it('acts for a sub-account named in upper case', async () => {
    const answer = await api<{ data: { account_id: string }[] }>('GET', '/v1/accounts', {
      token: master,
      headers: { 'x-on-behalf-of': SANDBOX.sub1.accountId.toUpperCase() },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((account) => account.account_id)).toEqual([SANDBOX.sub1.accountId]);
  });

  it('answers a validation error for a value that is not a uuid', async () => {
    const answer = await actingFor('{c232ab00-9414-11ec-b3c8-9f6bdeced846}');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request_error' });
  });
});
