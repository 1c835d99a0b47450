import { DynamicModule, Module } from '@nestjs/common';
import { commandControllerFor, PlatformModule } from '@paygrid/platform';
import { DispatcherConfig } from './config';
import { DeliveriesModule } from './modules/deliveries/deliveries.module';
import { EndpointsModule } from './modules/endpoints/endpoints.module';
import { EventsModule } from './modules/events/events.module';
import { OpsModule } from './modules/ops/ops.module';
import { deliveryJobsOptions } from './modules/sending/delivery-queue';
import { SendingModule } from './modules/sending/sending.module';
import { WebhookSecretsModule } from './modules/secrets/webhook-secrets.module';
import { webhookDispatcherMigrations } from './migrations';

/**
 * The webhook dispatcher (docs/webhooks.md): stores every domain event once and fans it out to the
 * subscribed endpoints, delivers signed with retries as durable jobs (Postgres keeps the record of what
 * is due, BullMQ wakes the worker), answers the `webhooks` command family (endpoints, deliveries,
 * replay), and serves the on-call queue view and metrics on its own port.
 *
 * Features import one another one way: secrets ← deliveries ← endpoints ← sending ← events; deliveries ← ops.
 */
@Module({})
export class WebhookDispatcherModule {
  static register(config: DispatcherConfig): DynamicModule {
    return {
      module: WebhookDispatcherModule,
      imports: [
        PlatformModule.forRoot({
          app: 'webhook-dispatcher',
          config,
          // The job worker, the intake and the reconciler share the pool; a few more connections than the default.
          database: { ...webhookDispatcherMigrations(config), poolSize: 20 },
          commands: true,
          redis: true,
          jobs: deliveryJobsOptions(config),
        }),
        WebhookSecretsModule,
        DeliveriesModule,
        EndpointsModule,
        EventsModule,
        SendingModule,
        OpsModule,
      ],
      controllers: [commandControllerFor('webhooks', config)],
    };
  }
}
