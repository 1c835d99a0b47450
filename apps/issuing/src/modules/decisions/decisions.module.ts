import { Module } from '@nestjs/common';
import { CryptoModule } from '../crypto/card-mint';
import { DecisionCommands } from './decision.commands';
import { DecisionEndpointRepository } from './decision-endpoint.repository';
import { DecisionService } from './decision.service';

/** Real-time authorization decisions: the account's endpoint and the signed call to it. */
@Module({
  imports: [CryptoModule],
  providers: [DecisionEndpointRepository, DecisionService, DecisionCommands],
  exports: [DecisionService],
})
export class DecisionsModule {}
