import { DynamicModule, Module } from '@nestjs/common';
import { commandControllerFor, PlatformModule } from '@paygrid/platform';
import { DispatcherConfig, privateUrlsAllowed } from './config';
import { WebhookEvents1710000000100 } from './migrations/1710000000100-webhook-events';
import { WebhookDeliveries1740000000000 } from './migrations/1740000000000-webhook-deliveries';
import { DeliveriesModule } from './modules/deliveries/deliveries.module';
import { EndpointsModule } from './modules/endpoints/endpoints.module';
import { EventsModule } from './modules/events/events.module';
import { OpsQueuesController } from './modules/ops/ops-queues.controller';
import { OpsTokenGuard } from './modules/ops/ops-token.guard';
import { DeliveryProcessor } from './modules/sending/delivery-processor';
import { DeliveryReconciler } from './modules/sending/delivery-reconciler';
import { DeliveryWorker } from './modules/sending/delivery-worker';
import { WebhookSender } from './modules/sending/webhook-sender';

/**
 * The webhook dispatcher (docs/webhooks.md): stores every domain event once and fans it out to the
 * subscribed endpoints, delivers signed with BullMQ retries while Postgres keeps the record of what is
 * due, answers the `webhooks` command family (endpoints, deliveries, replay), and serves the on-call
 * queue view and metrics on its own port.
 *
 * Features import one another one way: deliveries ← endpoints ← events. The sending worker and the ops
 * view are still registered here, on what those modules export, until the durable-jobs conversion
 * gives them modules of their own.
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
          // Workers, the intake and the reconciler share the pool; a few more connections than the default.
          database: {
            migrations: [WebhookEvents1710000000100, WebhookDeliveries1740000000000],
            poolSize: 20,
          },
          commands: true,
          redis: true,
        }),
        DeliveriesModule,
        EndpointsModule,
        EventsModule,
      ],
      controllers: [commandControllerFor('webhooks', config), OpsQueuesController],
      providers: [
        {
          provide: WebhookSender,
          useFactory: () =>
            new WebhookSender({
              timeoutMs: config.WEBHOOK_TIMEOUT_MS,
              allowPrivate: privateUrlsAllowed(config),
              maxSockets: config.WEBHOOK_CONCURRENCY,
            }),
        },
        DeliveryProcessor,
        DeliveryWorker,
        DeliveryReconciler,
        OpsTokenGuard,
      ],
    };
  }
}
