import { Module } from '@nestjs/common';
import { AccountSettingsModule } from '../account-settings/account-settings.module';
import { CardsModule } from '../cards/cards.module';
import { ConnectorsModule } from '../connectors/connectors.module';
import { CustomersModule } from '../customers/customers.module';
import { Authorization } from './authorization';
import { CaptureWindow } from './capture-window';
import { CancelIntentOperation } from './operations/cancel-intent.operation';
import { CaptureIntentOperation } from './operations/capture-intent.operation';
import { ConfirmIntentOperation } from './operations/confirm-intent.operation';
import { CreateIntentOperation } from './operations/create-intent.operation';
import { UpdateIntentOperation } from './operations/update-intent.operation';
import { PaymentFlow } from './payment-flow';
import { PaymentQueries } from './payment-queries';
import { PaymentCommands } from './payment.commands';
import { PaymentEvents } from './payment.events';
import { PaymentJobs } from './payment.jobs';
import { PaymentPresenter } from './payment.presenter';
import { PaymentRepository } from './payment.repository';

/**
 * Payment intents and their attempts: the operations (create, confirm, capture, cancel, update), the
 * one processor call (Authorization), the shared write steps (PaymentFlow), reads, events and jobs.
 * Exports what refunds, settlements and the hosted pages build on.
 */
@Module({
  imports: [AccountSettingsModule, ConnectorsModule, CardsModule, CustomersModule],
  providers: [
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
    PaymentCommands,
    PaymentJobs,
  ],
  exports: [PaymentRepository, PaymentPresenter, PaymentFlow, Authorization, ConfirmIntentOperation],
})
export class PaymentsModule {}
