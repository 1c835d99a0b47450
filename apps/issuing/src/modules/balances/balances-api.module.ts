import { Module } from '@nestjs/common';
import { BalancesCommands } from './balances.commands';
import { BalancesRepository } from './balances.repository';
import { BalancesService } from './balances.service';
import { BalancesModule } from './issuing-balances';

/**
 * The merchant-facing balances API over the issuing ledger. BalancesModule (issuing-balances.ts) stays the one
 * place that posts; this module only reads.
 */
@Module({
  imports: [BalancesModule],
  providers: [BalancesRepository, BalancesService, BalancesCommands],
  exports: [BalancesRepository],
})
export class BalancesApiModule {}
