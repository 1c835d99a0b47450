import { DataSource } from 'typeorm';
import { uuidV4 } from '@paygrid/ids';
import { ServiceHarness, TestDatabase, testRedisUrl } from '@paygrid/testing';
import { AccountsModule } from '../accounts.module';
import { configSchema } from '../config';
import { AccountRepository, NewAccount } from '../modules/accounts/account.repository';
import { anAccount } from './fixtures';

/**
 * The accounts app under the shared ServiceHarness (libs/testing). What is particular to accounts: a
 * test-speed sandbox review, and Redis logical database 11, so that test revocations never land in the
 * revoked-key set a local gateway reads (its key has a fixed name).
 */
export const TEST_REDIS_DB = 11;

export type AccountsService = ServiceHarness<typeof configSchema>;

export function startAccounts(
  options: { env?: Record<string, string>; consumesCommands?: boolean; database?: TestDatabase } = {},
): Promise<AccountsService> {
  return ServiceHarness.start({
    app: 'accounts',
    configSchema,
    module: (config) => AccountsModule.register(config),
    env: {
      REDIS_URL: testRedisUrl(TEST_REDIS_DB),
      ACCOUNT_REVIEW_DELAY_MS: '300',
      ACCOUNT_REVIEW_POLL_MS: '100',
      ...options.env,
    },
    consumesCommands: options.consumesCommands,
    database: options.database,
  });
}

/** A fresh ACTIVE master with two ACTIVE sub-accounts, written straight to the database. */
export async function insertFamily(
  dataSource: DataSource,
): Promise<{ master: string; sub: string; sibling: string }> {
  const repository = new AccountRepository();
  const master = uuidV4();
  const sub = uuidV4();
  const sibling = uuidV4();
  for (const [accountId, parentAccountId] of [
    [master, null],
    [sub, master],
    [sibling, master],
  ] as const) {
    const {
      shortReferenceId: _minted,
      reviewDueAt: _due,
      createdAt: _created,
      updatedAt: _updated,
      ...rest
    } = anAccount({
      accountId,
      parentAccountId,
      accountName: `Account ${accountId.slice(0, 8)}`,
    });
    const account: NewAccount = rest;
    await repository.insert(dataSource, account, { reviewDelayMs: null });
  }
  return { master, sub, sibling };
}
