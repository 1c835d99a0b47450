import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import { SANDBOX_SEED_DEFAULTS } from '@paygrid/contracts';
import { Executor, LOGGER } from '@paygrid/platform';
import { ISSUING_CONFIG, IssuingConfig } from '../../config';
import { IssuingBalances } from '../balances/issuing-balances';
import { PoolService } from '../pool/pool.service';
import { CARD_ART_CATALOGUE, PRODUCT_CATALOGUE } from './catalogue.defaults';
import { CatalogueRepository } from './catalogue.repository';

/**
 * Gives an account its issuing catalogue, once: the card products and card arts of catalogue.defaults.ts, and
 * for the sandbox accounts also their pool of physical cards and funded USD and SGD issuing balances.
 *
 * Accounts are learnt from the accounts service's `account.created` events (AccountsEventsListener); the
 * sandbox accounts, which the accounts service seeds without events, from the shared SANDBOX_SEED_DEFAULTS at
 * boot. The `issuing_accounts` row is the once-only guard: it and everything it stands for commit together.
 */
export const SANDBOX_SLOTS = [
  { slot: 1, account: SANDBOX_SEED_DEFAULTS.master, masterId: SANDBOX_SEED_DEFAULTS.master.accountId },
  { slot: 2, account: SANDBOX_SEED_DEFAULTS.sub1, masterId: SANDBOX_SEED_DEFAULTS.master.accountId },
  { slot: 3, account: SANDBOX_SEED_DEFAULTS.sub2, masterId: SANDBOX_SEED_DEFAULTS.master.accountId },
] as const;
const SANDBOX_CURRENCIES = ['USD', 'SGD'] as const;
const PROVISION_LOCK = 'paygrid.issuing.provisioning';

@Injectable()
export class AccountProvisioning {
  constructor(
    private readonly dataSource: DataSource,
    private readonly catalogue: CatalogueRepository,
    private readonly pool: PoolService,
    private readonly balances: IssuingBalances,
    @Inject(ISSUING_CONFIG) private readonly config: Pick<IssuingConfig, 'SANDBOX_ISSUING_FUNDING'>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Products and card arts for a new account; false when it had them already. */
  async provision(executor: Executor, account: { accountId: string; masterAccountId: string }, by: string): Promise<boolean> {
    const registered = await this.catalogue.registerAccount(executor, { ...account, provisionedBy: by, sandboxSlot: null });
    if (!registered) return false;
    await this.catalogue.insertProducts(executor, account.accountId, PRODUCT_CATALOGUE);
    await this.catalogue.insertCardArts(executor, account.accountId, CARD_ART_CATALOGUE);
    return true;
  }

  /** The three sandbox accounts, each in its own transaction under an advisory lock (replicas boot together). */
  async provisionSandboxAccounts(): Promise<string[]> {
    const provisioned: string[] = [];
    for (const { slot, account, masterId } of SANDBOX_SLOTS) {
      const created = await this.dataSource.transaction(async (manager) => {
        await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [PROVISION_LOCK]);
        const registered = await this.catalogue.registerAccount(manager, {
          accountId: account.accountId,
          masterAccountId: masterId,
          provisionedBy: 'sandbox-seed',
          sandboxSlot: slot,
        });
        if (!registered) return false;
        const products = await this.catalogue.insertProducts(manager, account.accountId, PRODUCT_CATALOGUE);
        await this.catalogue.insertCardArts(manager, account.accountId, CARD_ART_CATALOGUE);
        const poolProduct = products.find((product) => product.catalogueKey === 'standard-share');
        if (poolProduct) await this.pool.seedSandboxPool(manager, account.accountId, slot, poolProduct);
        const fundingMinor = BigInt(this.config.SANDBOX_ISSUING_FUNDING) * 100n;
        if (fundingMinor > 0n) {
          for (const currency of SANDBOX_CURRENCIES) await this.balances.fundSandbox(manager, account.accountId, currency, fundingMinor);
        }
        return true;
      });
      if (created) provisioned.push(account.accountId);
    }
    if (provisioned.length > 0) this.logger.info({ accounts: provisioned }, 'sandbox issuing accounts provisioned');
    return provisioned;
  }
}
