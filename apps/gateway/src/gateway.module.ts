import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ConfigOf, PlatformModule } from '@paygrid/platform';
import { configSchema } from './config';
import { gatewayMigrations } from './migrations';
import { AccountEventsListener } from './modules/auth/account-events.listener';
import { AuthGuard } from './modules/auth/auth.guard';
import { OnBehalfOfResolver } from './modules/auth/on-behalf-of.resolver';
import { RequestAdmission } from './modules/auth/request-admission';
import { TokenController } from './modules/auth/token.controller';
import { TokenService } from './modules/auth/token.service';
import { commandBusProviders } from './modules/commands/command-bus.provider';
import { ServiceCalls } from './modules/commands/service-calls';
import { IdempotencyGate } from './modules/idempotency/idempotency.gate';
import { IdempotencyService } from './modules/idempotency/idempotency.service';
import { IdempotencyStore } from './modules/idempotency/idempotency.store';
import { AccountsController } from './modules/accounts/accounts.controller';
import { acquiringControllers, acquiringProviders } from './modules/acquiring';
import { issuingControllers, issuingProviders } from './modules/issuing';
import { GatewayHealthController } from './modules/health/gateway-health.controller';
import { UnavailableController } from './modules/unavailable/unavailable.controller';
import { DiagnosticsController } from './modules/diagnostics/diagnostics.controller';
import { WebhooksController } from './modules/webhooks/webhooks.controller';
import { PayoutsController } from './modules/payouts/payouts.controller';

/** Every route of the gateway (the API reference is generated from these). */
export const GATEWAY_CONTROLLERS: Type<unknown>[] = [
  TokenController,
  AccountsController,
  ...acquiringControllers,
  ...issuingControllers,
  WebhooksController,
  PayoutsController,
  GatewayHealthController,
  DiagnosticsController,
  UnavailableController,
];

/** The only HTTP surface for merchants (architecture: gateway). */
@Module({})
export class GatewayModule {
  static register(config: ConfigOf<typeof configSchema>): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        PlatformModule.forRoot({
          app: 'gateway',
          config,
          database: gatewayMigrations(),
          outbox: false,
          redis: true,
          redisScripts: true,
        }),
      ],
      controllers: GATEWAY_CONTROLLERS,
      providers: [
        ...commandBusProviders,
        TokenService,
        OnBehalfOfResolver,
        AccountEventsListener,
        IdempotencyStore,
        RequestAdmission,
        IdempotencyService,
        ServiceCalls,
        ...acquiringProviders,
        ...issuingProviders,
        IdempotencyGate,
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
    };
  }
}
