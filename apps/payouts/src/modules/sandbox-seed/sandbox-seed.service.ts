import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import { SANDBOX_SEED_DEFAULTS } from '@paygrid/contracts';
import { LOGGER } from '@paygrid/platform';
import { PAYOUTS_CONFIG, PayoutsConfig, sandboxSeedEnabled } from '../../config';
import { AccountDirectoryRepository } from '../account-directory/account-directory.repository';
import { BankAccountRepository } from '../bank-accounts/bank-account.repository';

/**
 * The sandbox's settlement bank accounts, so payouts work on first start (issue 9): the master and each
 * seeded sub-account (SANDBOX_SEED_DEFAULTS, the public sandbox contract the accounts service seeds)
 * get a Valid USD account, and the directory learns their names and short ids before any event
 * arrives. Idempotent and safe for replicas booting together (advisory lock, insert if missing); an
 * operator's later update of a seeded bank account is never overwritten.
 */
const SEED_LOCK = 'paygrid.payouts.sandbox-seed';

export const SANDBOX_BANK_DETAILS = {
  currency: 'USD',
  accountNumber: '000123456789',
  bankName: 'Paygrid Sandbox Bank',
  swiftCode: 'PGSBUS33',
  bankCountryCode: 'US',
  bankAddress: '1 Sandbox Way, New York, NY 10001',
  bankCodeType: 'aba',
  bankCodeValue: '021000021',
  bankBranchCode: null,
} as const;

@Injectable()
export class SandboxSeedService implements OnApplicationBootstrap {
  constructor(
    private readonly dataSource: DataSource,
    private readonly directory: AccountDirectoryRepository,
    private readonly bankAccounts: BankAccountRepository,
    @Inject(PAYOUTS_CONFIG) private readonly config: PayoutsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!sandboxSeedEnabled(this.config)) return;
    const created = await this.seed();
    this.logger.info({ created }, 'sandbox settlement bank accounts ensured');
  }

  /** Returns how many bank accounts it created (0 on every boot after the first). */
  async seed(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [SEED_LOCK]);
      let created = 0;
      for (const account of Object.values(SANDBOX_SEED_DEFAULTS)) {
        await this.directory.record(manager, {
          accountId: account.accountId,
          masterAccountId: SANDBOX_SEED_DEFAULTS.master.accountId,
          shortReferenceId: account.shortReferenceId,
          accountName: account.accountName,
          // Older than any event: what the accounts service says later wins.
          observedAt: new Date(0),
        });
        const inserted = await this.bankAccounts.insert(manager, {
          id: randomUUID(),
          accountId: account.accountId,
          ...SANDBOX_BANK_DETAILS,
          status: 'Valid',
        });
        if (inserted) created += 1;
      }
      return created;
    });
  }
}
