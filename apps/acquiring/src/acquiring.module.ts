import { DynamicModule, Module } from '@nestjs/common';
import { commandControllerFor, PlatformModule } from '@paygrid/platform';
import { AcquiringConfig, assertProductionKeys } from './config';
import { AcquiringCommonModule } from './common/acquiring-common.module';
import { mapAcquiringError } from './common/acquiring-errors';
import { acquiringMigrations } from './migrations';
import { AccountSettingsModule } from './modules/account-settings/account-settings.module';
import { CardsModule } from './modules/cards/cards.module';
import { ConnectorsModule } from './modules/connectors/connectors.module';
import { CustomersModule } from './modules/customers/customers.module';
import { HostedModule } from './modules/hosted/hosted.module';
import { PaymentsModule } from './modules/payments/payments.module';
import { RefundsModule } from './modules/refunds/refunds.module';
import { SettlementsModule } from './modules/settlements/settlements.module';

/**
 * The acquiring service: payment intents and attempts, customers and saved cards, captures, refunds and
 * settlements, and the sandbox processor behind the CardConnector interface. Answers the commands of
 * libs/contracts (AcquiringCommand) on its command topic and publishes ACQUIRING events through its
 * outbox; delayed work runs as the platform's durable jobs (Postgres record, BullMQ, reconciler), handled
 * by each feature's `*.jobs.ts`.
 */
/** The BullMQ queue of acquiring's durable jobs. Stored in Redis: never rename it. */
export const ACQUIRING_JOB_QUEUE = 'acquiring-jobs';

@Module({})
export class AcquiringModule {
  static register(config: AcquiringConfig): DynamicModule {
    assertProductionKeys(config);
    return {
      module: AcquiringModule,
      imports: [
        PlatformModule.forRoot({
          app: 'acquiring',
          config,
          database: acquiringMigrations(),
          commands: true,
          commandErrors: mapAcquiringError,
          redis: true,
          jobs: { queue: ACQUIRING_JOB_QUEUE, prefix: config.JOBS_PREFIX, reconcileIntervalMs: config.JOBS_RECONCILE_INTERVAL_MS },
        }),
        AcquiringCommonModule,
        AccountSettingsModule,
        ConnectorsModule,
        CardsModule,
        CustomersModule,
        PaymentsModule,
        RefundsModule,
        SettlementsModule,
        HostedModule,
      ],
      controllers: [commandControllerFor('acquiring', config)],
    };
  }
}
