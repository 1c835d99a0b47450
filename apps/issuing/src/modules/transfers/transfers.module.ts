import { Module } from '@nestjs/common';
import { BalancesModule } from '../balances/issuing-balances';
import { TransferCommands } from './transfer.commands';
import { TransferRepository } from './transfer.repository';
import { TransferService } from './transfer.service';

/** Transfers between a master account's and its sub-accounts' issuing balances. */
@Module({
  imports: [BalancesModule],
  providers: [TransferRepository, TransferService, TransferCommands],
})
export class TransfersModule {}
