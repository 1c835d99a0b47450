import { Injectable } from '@nestjs/common';
import { IssuingFundsCommand, ListBalanceTransactionsPayload, ListIssuingBalancesPayload, RetrieveIssuingBalancePayload } from '@paygrid/contracts';
import { CommandContext, HandleCommand } from '@paygrid/platform';
import { BalancesService } from './balances.service';

/** The issuing balances API (thin). */
@Injectable()
export class BalancesCommands {
  constructor(private readonly balances: BalancesService) {}

  @HandleCommand(IssuingFundsCommand.listBalances)
  list(payload: ListIssuingBalancesPayload, context: CommandContext) {
    return this.balances.list(context.requireActor(), payload);
  }

  @HandleCommand(IssuingFundsCommand.retrieveBalance)
  retrieve(payload: RetrieveIssuingBalancePayload, context: CommandContext) {
    return this.balances.retrieve(context.requireActor(), payload.currency);
  }

  @HandleCommand(IssuingFundsCommand.listBalanceTransactions)
  transactions(payload: ListBalanceTransactionsPayload, context: CommandContext) {
    return this.balances.transactions(context.requireActor(), payload);
  }
}
