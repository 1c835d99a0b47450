import { Module } from '@nestjs/common';
import { BalancesModule } from '../balances/issuing-balances';
import { DepositRepository } from './deposit.repository';
import { DepositService } from './deposit.service';
import { SimulationCommands } from './simulation.commands';

/** The sandbox deposit simulator. */
@Module({
  imports: [BalancesModule],
  providers: [DepositRepository, DepositService, SimulationCommands],
})
export class SimulationModule {}
