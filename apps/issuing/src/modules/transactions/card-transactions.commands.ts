import { Injectable } from '@nestjs/common';
import { IssuingTransactionCommand, ListCardTransactionsPayload, TransactionRef } from '@paygrid/contracts';
import { CommandContext, HandleCommand } from '@paygrid/platform';
import { CardTransactionsService } from './card-transactions.service';

/** Card transaction reads (thin). */
@Injectable()
export class CardTransactionsCommands {
  constructor(private readonly transactions: CardTransactionsService) {}

  @HandleCommand(IssuingTransactionCommand.listTransactions)
  list(payload: ListCardTransactionsPayload, context: CommandContext) {
    return this.transactions.list(context.requireActor(), payload);
  }

  @HandleCommand(IssuingTransactionCommand.retrieveTransaction)
  retrieve(payload: TransactionRef, context: CommandContext) {
    return this.transactions.retrieve(context.requireActor(), payload.transaction_id);
  }
}
