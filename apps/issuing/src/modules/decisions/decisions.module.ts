import { Module } from '@nestjs/common';
import { privateUrlsAllowed } from '@paygrid/platform';
import { ISSUING_CONFIG, IssuingConfig } from '../../config';
import { CryptoModule } from '../crypto/card-mint';
import { DecisionCaller } from './decision-caller';
import { DecisionCommands } from './decision.commands';
import { DecisionEndpointRepository } from './decision-endpoint.repository';
import { DecisionService } from './decision.service';

/** Real-time authorization decisions: the account's endpoint and the signed call to it, behind the outbound guard. */
@Module({
  imports: [CryptoModule],
  providers: [
    {
      provide: DecisionCaller,
      inject: [ISSUING_CONFIG],
      useFactory: (config: Pick<IssuingConfig, 'ISSUING_DECISION_ALLOW_PRIVATE_URLS' | 'NODE_ENV'>) =>
        new DecisionCaller({ allowPrivate: privateUrlsAllowed(config.ISSUING_DECISION_ALLOW_PRIVATE_URLS, config.NODE_ENV) }),
    },
    DecisionEndpointRepository,
    DecisionService,
    DecisionCommands,
  ],
  exports: [DecisionService],
})
export class DecisionsModule {}
