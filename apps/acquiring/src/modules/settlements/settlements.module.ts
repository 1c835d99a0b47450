import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../connectors/connectors.module';
import { PaymentsModule } from '../payments/payments.module';
import { SettlementCommands } from './settlement.commands';
import { SettlementJobs } from './settlement.jobs';
import { SettlementRepository } from './settlement.repository';
import { SettlementService } from './settlement.service';

/** Settlement of captured payments in daily batches, run by a durable job after capture. */
@Module({
  imports: [PaymentsModule, ConnectorsModule],
  providers: [SettlementRepository, SettlementService, SettlementCommands, SettlementJobs],
})
export class SettlementsModule {}
