import { Module } from '@nestjs/common';
import { CardRepository } from '../cards/card.repository';
import { CardTransactionRepository } from './card-transaction.repository';
import { CardTransactionsCommands } from './card-transactions.commands';
import { CardTransactionsService } from './card-transactions.service';

/** Card transactions: their table and the read API; the authorization module writes them. */
@Module({
  providers: [CardTransactionRepository, CardRepository, CardTransactionsService, CardTransactionsCommands],
  exports: [CardTransactionRepository],
})
export class CardTransactionsModule {}
