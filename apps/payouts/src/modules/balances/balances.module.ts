import { Module } from '@nestjs/common';
import { AcquiringEventsListener } from './acquiring-events.listener';
import { AcquiringPostings } from './acquiring-postings.service';
import { BalanceCommands } from './balance.commands';
import { BalanceService } from './balance.service';
import { MerchantLedger } from './merchant-ledger';

/** Merchants' money: the ledger fed by acquiring's events, and the balance queries. */
@Module({
  providers: [MerchantLedger, AcquiringPostings, AcquiringEventsListener, BalanceService, BalanceCommands],
  exports: [MerchantLedger],
})
export class BalancesModule {}
