import { DynamicModule, Module } from '@nestjs/common';
import { commandControllerFor, PlatformModule } from '@paygrid/platform';
import { DISPATCHER_CONFIG, DispatcherConfig, privateUrlsAllowed } from './config';
import { WebhookEvents1710000000100 } from './migrations/1710000000100-webhook-events';
import { WebhookDeliveries1740000000000 } from './migrations/1740000000000-webhook-deliveries';
import { DeliveryCommandHandlers } from './modules/deliveries/delivery.commands';
import { DeliveryRepository } from './modules/deliveries/delivery.repository';
import { DeliveryService } from './modules/deliveries/delivery.service';
import { EndpointCommandHandlers } from './modules/endpoints/endpoint.commands';
import { EndpointRepository } from './modules/endpoints/endpoint.repository';
import { EndpointService } from './modules/endpoints/endpoint.service';
import { EventIntakeService } from './modules/events/event-intake.service';
import { EventRepository } from './modules/events/event.repository';
import { OpsQueuesController } from './modules/ops/ops-queues.controller';
import { OpsTokenGuard } from './modules/ops/ops-token.guard';
import { DeliveryProcessor } from './modules/sending/delivery-processor';
import { DeliveryQueue } from './modules/sending/delivery-queue';
import { DeliveryReconciler } from './modules/sending/delivery-reconciler';
import { DeliveryWorker } from './modules/sending/delivery-worker';
import { WebhookMetrics } from './modules/sending/webhook-metrics';
import { WebhookSender } from './modules/sending/webhook-sender';

/**
 * The webhook dispatcher (docs/webhooks.md): stores every domain event once and fans it out to the
 * subscribed endpoints, delivers signed with BullMQ retries while Postgres keeps the record of what is
 * due, answers the `webhooks` command family (endpoints, deliveries, replay), and serves the on-call
 * queue view and metrics on its own port.
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
      ],
      controllers: [commandControllerFor('webhooks', config), OpsQueuesController],
      providers: [
        { provide: DISPATCHER_CONFIG, useValue: config },
        {
          provide: WebhookSender,
          useFactory: () =>
            new WebhookSender({
              timeoutMs: config.WEBHOOK_TIMEOUT_MS,
              allowPrivate: privateUrlsAllowed(config),
              maxSockets: config.WEBHOOK_CONCURRENCY,
            }),
        },
        WebhookMetrics,
        EventRepository,
        EndpointRepository,
        DeliveryRepository,
        DeliveryQueue,
        EndpointService,
        DeliveryService,
        DeliveryProcessor,
        DeliveryWorker,
        DeliveryReconciler,
        EventIntakeService,
        EndpointCommandHandlers,
        DeliveryCommandHandlers,
        OpsTokenGuard,
      ],
    };
  }
}
