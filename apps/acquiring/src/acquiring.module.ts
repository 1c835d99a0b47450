import { DynamicModule, Module, Provider } from '@nestjs/common';
import { commandControllerFor, PlatformModule } from '@paygrid/platform';
import { ACQUIRING_CONFIG, AcquiringConfig, assertProductionKeys } from './config';
import { UnitOfWork } from './common/unit-of-work';
import { Acquiring1740000000000 } from './migrations/1740000000000-acquiring';
import { CardTransport } from './modules/cards/card-transport';
import { CardVault } from './modules/cards/card-vault';
import { CARD_CONNECTOR } from './modules/connectors/connector';
import { SandboxConnector } from './modules/connectors/sandbox.connector';
import { CustomerRepository } from './modules/customers/customer.repository';
import { CustomerService } from './modules/customers/customer.service';
import { HostedService } from './modules/hosted/hosted.service';
import { JobRepository } from './modules/jobs/job.repository';
import { JobScheduler } from './modules/jobs/job-scheduler';
import { Authorization } from './modules/payments/authorization';
import { CaptureWindow } from './modules/payments/capture-window';
import { CancelIntentOperation } from './modules/payments/operations/cancel-intent.operation';
import { CaptureIntentOperation } from './modules/payments/operations/capture-intent.operation';
import { ConfirmIntentOperation } from './modules/payments/operations/confirm-intent.operation';
import { CreateIntentOperation } from './modules/payments/operations/create-intent.operation';
import { UpdateIntentOperation } from './modules/payments/operations/update-intent.operation';
import { PaymentCommandHandlers } from './modules/payments/payment.commands';
import { PaymentEvents } from './modules/payments/payment.events';
import { PaymentFlow } from './modules/payments/payment-flow';
import { PaymentJobs } from './modules/payments/payment.jobs';
import { PaymentPresenter } from './modules/payments/payment.presenter';
import { PaymentQueries } from './modules/payments/payment-queries';
import { PaymentRepository } from './modules/payments/payment.repository';
import { RefundRepository } from './modules/refunds/refund.repository';
import { RefundService } from './modules/refunds/refund.service';
import { SettlementRepository } from './modules/settlements/settlement.repository';
import { SettlementService } from './modules/settlements/settlement.service';

/**
 * The acquiring service: payment intents and attempts, customers and saved cards, captures, refunds and
 * settlements, and the sandbox processor behind the CardConnector interface. Answers the commands of
 * libs/contracts/src/acquiring.ts on its command topic and publishes ACQUIRING events through its outbox;
 * delayed work runs on BullMQ with Postgres as its record (modules/jobs).
 */
@Module({})
export class AcquiringModule {
  static register(config: AcquiringConfig): DynamicModule {
    assertProductionKeys(config);
    const providers: Provider[] = [
      { provide: ACQUIRING_CONFIG, useValue: config },
      { provide: CARD_CONNECTOR, useClass: SandboxConnector },
      JobRepository,
      JobScheduler,
      UnitOfWork,
      CardVault,
      CardTransport,
      CustomerRepository,
      CustomerService,
      PaymentRepository,
      PaymentPresenter,
      PaymentEvents,
      CaptureWindow,
      PaymentFlow,
      Authorization,
      CreateIntentOperation,
      ConfirmIntentOperation,
      CaptureIntentOperation,
      CancelIntentOperation,
      UpdateIntentOperation,
      PaymentQueries,
      PaymentCommandHandlers,
      PaymentJobs,
      RefundRepository,
      RefundService,
      SettlementRepository,
      SettlementService,
      HostedService,
    ];
    return {
      module: AcquiringModule,
      imports: [
        PlatformModule.forRoot({
          app: 'acquiring',
          config,
          database: { migrations: [Acquiring1740000000000] },
          commands: true,
          redis: true,
        }),
      ],
      controllers: [commandControllerFor('acquiring', config)],
      providers,
    };
  }
}
