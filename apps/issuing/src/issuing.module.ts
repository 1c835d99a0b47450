import { DynamicModule, Global, Module } from '@nestjs/common';
import { commandControllerFor, PlatformModule } from '@paygrid/platform';
import { mapIssuingError } from './common/issuing-errors';
import { assertProductionKeys, configSchema, ISSUING_CONFIG, IssuingConfig } from './config';
import { issuingMigrations } from './migrations';
import { BalancesApiModule } from './modules/balances/balances-api.module';
import { AuthorizationModule } from './modules/authorization/authorization.module';
import { CardTransactionsModule } from './modules/transactions/card-transactions.module';
import { CardModule } from './modules/cards/card.module';
import { CardholderModule } from './modules/cardholders/cardholder.module';
import { CatalogueModule } from './modules/catalogue/catalogue.module';
import { ReportsModule } from './modules/reports/reports.module';
import { SimulationModule } from './modules/simulation/simulation.module';
import { TransfersModule } from './modules/transfers/transfers.module';
import { IssuingLedgerAuditModule } from './modules/ledger-audit/issuing-ledger-audit.module';

/**
 * The issuing service (docs/issuing.md): card products, cardholders and their KYC, cards and card orders, the
 * card-number pool and the sensitive details, with the issuing money in its own double-entry ledger.
 */
/** The BullMQ queue of issuing's durable jobs (KYC reviews, card orders). Stored in Redis: never rename it. */
export const ISSUING_JOB_QUEUE = 'issuing-jobs';

@Global()
@Module({})
class IssuingConfigModule {
  static register(config: IssuingConfig): DynamicModule {
    return {
      module: IssuingConfigModule,
      providers: [{ provide: ISSUING_CONFIG, useValue: config }],
      exports: [ISSUING_CONFIG],
    };
  }
}

@Module({})
export class IssuingModule {
  static register(config: IssuingConfig): DynamicModule {
    assertProductionKeys(config);
    return {
      module: IssuingModule,
      imports: [
        PlatformModule.forRoot({
          app: 'issuing',
          config,
          database: issuingMigrations(),
          commands: true,
          commandErrors: mapIssuingError,
          redis: true,
          jobs: { queue: ISSUING_JOB_QUEUE, prefix: config.JOBS_PREFIX, reconcileIntervalMs: config.JOBS_RECONCILE_INTERVAL_MS },
        }),
        IssuingConfigModule.register(config),
        CatalogueModule,
        CardholderModule,
        CardModule,
        BalancesApiModule,
        TransfersModule,
        SimulationModule,
        ReportsModule,
        IssuingLedgerAuditModule,
        CardTransactionsModule,
        AuthorizationModule,
      ],
      controllers: [commandControllerFor('issuing', config)],
    };
  }
}

export { configSchema };
