import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../connectors/connectors.module';
import { PaymentsModule } from '../payments/payments.module';
import { RefundCommands } from './refund.commands';
import { RefundJobs } from './refund.jobs';
import { RefundRepository } from './refund.repository';
import { RefundService } from './refund.service';

/** Refunds of captured payments: created under the intent's row lock, processed by a durable job. */
@Module({
  imports: [PaymentsModule, ConnectorsModule],
  providers: [RefundRepository, RefundService, RefundCommands, RefundJobs],
})
export class RefundsModule {}
