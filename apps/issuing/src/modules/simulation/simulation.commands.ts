import { Injectable } from '@nestjs/common';
import { IssuingFundsCommand, SimulateDepositPayload } from '@paygrid/contracts';
import { HandleCommand, WriteContext } from '@paygrid/platform';
import { DepositService } from './deposit.service';

/** Sandbox simulators of issuing's money (thin). */
@Injectable()
export class SimulationCommands {
  constructor(private readonly deposits: DepositService) {}

  @HandleCommand(IssuingFundsCommand.simulateDeposit)
  deposit(payload: SimulateDepositPayload, context: WriteContext) {
    return this.deposits.simulate(context.tx, context.requireActor(), payload);
  }
}
