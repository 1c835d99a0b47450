import { Module } from '@nestjs/common';
import { AccountDirectoryModule } from '../account-directory/account-directory.module';
import { BalancesModule } from '../balances/balances.module';
import { BankAccountModule } from '../bank-accounts/bank-account.module';
import { PayoutRail } from './payout-rail';
import { PayoutRailJobs } from './payout-rail.jobs';
import { PayoutCommands } from './payout.commands';
import { PayoutRepository } from './payout.repository';
import { PayoutService } from './payout.service';

/** Payouts: creation (funds reserved at once), reads, and the sandbox bank rail that moves them on. */
@Module({
  imports: [AccountDirectoryModule, BalancesModule, BankAccountModule],
  providers: [PayoutRepository, PayoutService, PayoutCommands, PayoutRail, PayoutRailJobs],
  exports: [PayoutRepository],
})
export class PayoutModule {}
