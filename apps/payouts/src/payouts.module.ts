import { DynamicModule, Global, Module } from '@nestjs/common';
import { commandControllerFor, PlatformModule } from '@paygrid/platform';
import { mapPayoutsError } from './common/payouts-errors';
import { PAYOUTS_CONFIG, PayoutsConfig } from './config';
import { payoutsMigrations } from './migrations';
import { AccountDirectoryModule } from './modules/account-directory/account-directory.module';
import { BalancesModule } from './modules/balances/balances.module';
import { BankAccountModule } from './modules/bank-accounts/bank-account.module';
import { LedgerAuditModule } from './modules/ledger-audit/ledger-audit.module';
import { PayoutModule } from './modules/payouts/payout.module';
import { SandboxSeedModule } from './modules/sandbox-seed/sandbox-seed.module';

/** The BullMQ queue of the payouts service's durable jobs (the bank rail's steps). Stored in Redis: never rename it. */
export const PAYOUTS_JOB_QUEUE = 'payouts-jobs';

/** The service's configuration, for every feature module. */
@Global()
@Module({})
class PayoutsConfigModule {
  static register(config: PayoutsConfig): DynamicModule {
    const providers = [{ provide: PAYOUTS_CONFIG, useValue: config }];
    return { module: PayoutsConfigModule, providers, exports: providers };
  }
}

/**
 * The payouts service (docs/payouts.md): the owner of merchants' money. Settlement bank accounts,
 * payment balances kept in a double-entry ledger fed by acquiring's events, and payouts driven through
 * the sandbox bank rail.
 */
@Module({})
export class PayoutsModule {
  static register(config: PayoutsConfig): DynamicModule {
    return {
      module: PayoutsModule,
      imports: [
        PlatformModule.forRoot({
          app: 'payouts',
          config,
          database: payoutsMigrations(),
          commands: true,
          // The bank rail's steps. The lease is how long a SIGKILLed worker's step waits before it reruns:
          // also when the kill came after BullMQ made the job active and before the step's claim, where only
          // BullMQ's stalled check (lock and check interval: up to twice this value) frees it. At its 30 s
          // default, such a step reran ~60 s later however short the lease (the e2e fault test once timed out
          // on it).
          jobs: {
            queue: PAYOUTS_JOB_QUEUE,
            prefix: config.JOBS_PREFIX,
            reconcileIntervalMs: config.JOBS_RECONCILE_INTERVAL_MS,
            leaseMs: config.JOBS_LEASE_MS,
            stalledIntervalMs: Math.min(30_000, config.JOBS_LEASE_MS),
          },
          // A payout the balance cannot cover is a 400, not a 500.
          commandErrors: mapPayoutsError,
        }),
        PayoutsConfigModule.register(config),
        AccountDirectoryModule,
        BankAccountModule,
        BalancesModule,
        PayoutModule,
        LedgerAuditModule,
        SandboxSeedModule,
      ],
      controllers: [commandControllerFor('payouts', config)],
    };
  }
}
