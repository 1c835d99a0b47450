import { Provider, Type } from '@nestjs/common';
import { CardSealer } from './card-sealer';
import { HostedPagesController } from './hosted-pages.controller';
import { PaymentIntentsController } from './payment-intents.controller';
import { PaymentAttemptsController, RefundsController, SettlementsController } from './payments.controller';

/** The acquiring routes of the gateway, registered by gateway.module.ts. */
export const acquiringControllers: Type<unknown>[] = [
  PaymentIntentsController,
  PaymentAttemptsController,
  RefundsController,
  SettlementsController,
  HostedPagesController,
];

export const acquiringProviders: Provider[] = [CardSealer];
