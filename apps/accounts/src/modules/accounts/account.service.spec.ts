import { DataSource } from 'typeorm';
import { Executor } from '@paygrid/platform';
import { actorFor, anAccount, companyBody, refusalFrom } from '../../test/fixtures';
import { validatePayload } from '@paygrid/contracts';
import { Account } from './account.types';
import { AccountRepository } from './account.repository';
import { AccountService } from './account.service';
import { CreateSubAccountDto } from '@paygrid/contracts';

/** An in-memory stand-in for the repository: the service's rules, without Postgres. */
class FakeAccounts {
  readonly rows = new Map<string, Account>();
  inserted: Account[] = [];

  add(...accounts: Account[]): void {
    for (const account of accounts) this.rows.set(account.accountId, account);
  }
  async findById(_: Executor, id: string) {
    return this.rows.get(id) ?? null;
  }
  async listFamily(_: Executor, masterId: string, page: { limit: number; offset: number }) {
    const family = [...this.rows.values()].filter(
      (account) => (account.accountId === masterId || account.parentAccountId === masterId) && account.status !== 'CLOSED',
    );
    return { total: family.length, accounts: family.slice(page.offset, page.offset + page.limit) };
  }
  async insert(_: Executor, account: Omit<Account, 'shortReferenceId'>) {
    const row: Account = { ...account, shortReferenceId: 'P000000777', createdAt: new Date(), updatedAt: new Date() };
    this.inserted.push(row);
    return row;
  }
}

const master = anAccount({ accountId: '10000000-0000-4000-8000-000000000000', accountName: 'Master' });
const sub = anAccount({ accountId: '10000000-0000-4000-8000-000000000001', parentAccountId: master.accountId });
const sibling = anAccount({ accountId: '10000000-0000-4000-8000-000000000002', parentAccountId: master.accountId });
const closedSub = anAccount({ accountId: '10000000-0000-4000-8000-000000000003', parentAccountId: master.accountId, status: 'CLOSED' });
const stranger = anAccount({ accountId: '20000000-0000-4000-8000-000000000000' });

function setup() {
  const accounts = new FakeAccounts();
  accounts.add(master, sub, sibling, closedSub, stranger);
  const executor: Executor = { query: jest.fn().mockResolvedValue([]) };
  const service = new AccountService({} as DataSource, accounts as unknown as AccountRepository, { ACCOUNT_REVIEW_DELAY_MS: 1000 });
  return { service, accounts, executor };
}

const refusal = refusalFrom;

const accountNotFound = {
  status: 400,
  body: { type: 'invalid_request_error', code: 'account_not_found', message: 'account not found or deactivated' },
  headers: {},
};

describe('AccountService.list', () => {
  it('shows a master itself first, then its live sub-accounts', async () => {
    const { service } = setup();
    const page = await service.list(actorFor(master), { page_size: 10, page_number: 1 });
    expect(page.total_items).toBe(3);
    expect(page.total_pages).toBe(1);
    expect(page.data.map((account) => account.account_id)).toEqual([master.accountId, sub.accountId, sibling.accountId]);
  });

  it('shows a sub-account only itself, never its master or siblings', async () => {
    const { service } = setup();
    const page = await service.list(actorFor(sub), { page_size: 10, page_number: 1 });
    expect(page).toMatchObject({ total_items: 1, total_pages: 1 });
    expect(page.data.map((account) => account.account_id)).toEqual([sub.accountId]);
    expect((await service.list(actorFor(sub), { page_size: 10, page_number: 2 })).data).toEqual([]);
  });
});

describe('AccountService.retrieve', () => {
  it('lets a master retrieve its sub-account', async () => {
    const { service } = setup();
    const view = await service.retrieve(actorFor(master), { account_id: sub.accountId });
    expect(view.account_id).toBe(sub.accountId);
  });

  it('reports the master and a sibling to a sub-account exactly like an unknown id', async () => {
    const { service } = setup();
    for (const target of [master.accountId, sibling.accountId, '99999999-9999-4999-8999-999999999999']) {
      expect(await refusal(service.retrieve(actorFor(sub), { account_id: target }))).toEqual(accountNotFound);
    }
  });

  it('reports another master’s account and a closed sub-account as not found', async () => {
    const { service } = setup();
    expect(await refusal(service.retrieve(actorFor(master), { account_id: stranger.accountId }))).toEqual(accountNotFound);
    expect(await refusal(service.retrieve(actorFor(master), { account_id: closedSub.accountId }))).toEqual(accountNotFound);
  });
});

describe('AccountService.createSubAccount', () => {
  const body = (() => {
    const result = validatePayload(CreateSubAccountDto, companyBody());
    if (!result.ok) throw new Error(result.problems.join());
    return result.value;
  })();

  it('creates a PROCESSING sub-account under the acting master and records account.created', async () => {
    const { service, accounts, executor } = setup();
    const created = await service.createSubAccount(actorFor(master), body, executor);
    expect(created).toMatchObject({ status: 'PROCESSING', business_type: 'ACQUIRING', entity_type: 'COMPANY', nickname: 'Shop One' });
    expect(accounts.inserted[0].parentAccountId).toBe(master.accountId);
    const outbox = (executor.query as jest.Mock).mock.calls.find(([sql]) => String(sql).includes('INSERT INTO outbox'));
    expect(JSON.parse(outbox[1][3])).toMatchObject({ event_name: 'account.created', event_type: 'ONBOARDING', source_id: created.account_id });
  });

  it('refuses a sub-account that tries to create a sub-account, clearly', async () => {
    const { service, accounts } = setup();
    expect(await refusal(service.createSubAccount(actorFor(sub), body, { query: jest.fn() }))).toEqual({
      status: 400,
      body: {
        type: 'account_error',
        code: 'master_account_required',
        message: 'only a master account can create sub-accounts; the acting account is a sub-account',
      },
      headers: {},
    });
    expect(accounts.inserted).toEqual([]);
  });
});

describe('AccountService.resolveOnBehalfOf', () => {
  it('resolves a master’s own sub-account', async () => {
    const { service } = setup();
    expect(await service.resolveOnBehalfOf(actorFor(master), { target_account_id: sub.accountId })).toEqual({
      account_id: sub.accountId,
      master_account_id: master.accountId,
      short_reference_id: sub.shortReferenceId,
    });
  });

  it('never lets a sub-account act for its master, a sibling or an unknown account', async () => {
    const { service } = setup();
    for (const target of [master.accountId, sibling.accountId, '99999999-9999-4999-8999-999999999999']) {
      const error = (await refusal(service.resolveOnBehalfOf(actorFor(sub), { target_account_id: target }))) as { body: { code: string } };
      expect(error.body.code).toBe('sub_account_not_found');
    }
  });

  it('refuses a closed sub-account and another master’s account', async () => {
    const { service } = setup();
    for (const target of [closedSub.accountId, stranger.accountId]) {
      const error = (await refusal(service.resolveOnBehalfOf(actorFor(master), { target_account_id: target }))) as { body: { code: string } };
      expect(error.body.code).toBe('sub_account_not_found');
    }
  });
});
