import { Module } from '@nestjs/common';
import { CardModule } from '../cards/card.module';
import { CardRepository } from '../cards/card.repository';
import { DecisionsModule } from '../decisions/decisions.module';
import { CardTransactionsModule } from '../transactions/card-transactions.module';
import { AuthorizationCommands } from './authorization.commands';
import { AuthorizationPostings } from './authorization.postings';
import { AuthorizationService } from './authorization.service';

/** The authorization path and the card-transaction simulators. */
@Module({
  imports: [CardModule, CardTransactionsModule, DecisionsModule],
  providers: [CardRepository, AuthorizationPostings, AuthorizationService, AuthorizationCommands],
})
export class AuthorizationModule {}
