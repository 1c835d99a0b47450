import { Injectable } from '@nestjs/common';
import { BalanceCurrencyPayload, ListBalancesPayload, PayoutCommand } from '@paygrid/contracts';
import { CommandContext, HandleCommand } from '@paygrid/platform';
import { BalanceService } from './balance.service';

/** The balance queries (wire-compat §9.10), of the acting account. */
@Injectable()
export class BalanceCommands {
  constructor(private readonly balances: BalanceService) {}

  @HandleCommand(PayoutCommand.listBalances)
  list(payload: ListBalancesPayload, context: CommandContext) {
    return this.balances.list(context.requireActor().account_id, payload);
  }

  @HandleCommand(PayoutCommand.retrieveBalance)
  retrieve(payload: BalanceCurrencyPayload, context: CommandContext) {
    return this.balances.retrieve(context.requireActor().account_id, payload.currency);
  }
}
