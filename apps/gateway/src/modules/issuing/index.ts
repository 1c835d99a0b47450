import { Provider, Type } from '@nestjs/common';
import { IssuingController } from './issuing.controller';
import { IssuingFundsController } from './issuing-funds.controller';
import { IssuingTransactionsController } from './issuing-transactions.controller';
import { IssuingSecretsSealer } from './issuing-secrets';
import { SensitiveCardRateLimit } from './sensitive-card.rate-limit';

/** The issuing routes of the gateway, registered by gateway.module.ts. */
export const issuingControllers: Type<unknown>[] = [IssuingController, IssuingFundsController, IssuingTransactionsController];
export const issuingProviders: Provider[] = [IssuingSecretsSealer, SensitiveCardRateLimit];
