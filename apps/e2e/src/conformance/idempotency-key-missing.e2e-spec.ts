import { randomUUID } from 'node:crypto';
import { api, SANDBOX, tokenFor } from '../support/api-client';
import { queryE2eDatabase } from '../support/databases';
import { companySubAccount } from '../support/fixtures';

/**
 * Issue 13 item 5 (spec 7.1): a POST without `x-idempotency-key`, or with an empty one, is refused as
 * `idempotency_error` / `invalid_key_format` (the SDKs raise IdempotencyError, never retried), like a key that
 * is not a uuid, and nothing runs or is recorded.
 */
describe('x-idempotency-key missing or empty', () => {
  let master: string;
  beforeAll(async () => {
    master = await tokenFor(SANDBOX.master);
  });

  async function accountsNamed(nickname: string): Promise<number> {
    const rows = await queryE2eDatabase<{ n: number }>(
      'paygrid_accounts',
      'SELECT count(*)::int AS n FROM accounts WHERE nickname = $1',
      [nickname],
    );
    return rows[0].n;
  }

  it.each([
    ['missing', null],
    ['empty', ''],
    ['not a uuid', 'key-1'],
  ])(
    'answers 400 idempotency_error invalid_key_format for a %s key and creates nothing',
    async (_case, key) => {
      const nickname = `Keyless ${randomUUID().slice(0, 8)}`;
      const answer = await api('POST', '/v1/accounts/create_accounts', {
        token: master,
        body: companySubAccount(nickname),
        idempotencyKey: key,
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ type: 'idempotency_error', code: 'invalid_key_format' });
      expect(answer.body).toHaveProperty('message', expect.stringContaining('x-idempotency-key'));
      expect(await accountsNamed(nickname)).toBe(0);
    },
  );

  it('still accepts a GET without a key (decisions §1)', async () => {
    const answer = await api('GET', '/v1/accounts', { token: master });
    expect(answer.status).toBe(200);
  });
});
