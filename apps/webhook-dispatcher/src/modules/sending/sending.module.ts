import { Module } from '@nestjs/common';
import { APP_CONFIG, privateUrlsAllowed } from '@paygrid/platform';
import { DispatcherConfig } from '../../config';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { DeliveryProcessor } from './delivery-processor';
import { DeliveryJobs } from './delivery.jobs';
import { WebhookSender } from './webhook-sender';

/**
 * Sending: each due attempt of a delivery, run as a durable job of the platform (delivery.jobs.ts),
 * signed and sent, its outcome recorded (delivery-processor.ts). Builds on deliveries and endpoints.
 */
@Module({
  imports: [DeliveriesModule, EndpointsModule],
  providers: [
    {
      provide: WebhookSender,
      inject: [APP_CONFIG],
      useFactory: (config: DispatcherConfig) =>
        new WebhookSender({
          timeoutMs: config.WEBHOOK_TIMEOUT_MS,
          allowPrivate: privateUrlsAllowed(config.WEBHOOK_ALLOW_PRIVATE_URLS, config.NODE_ENV),
          maxSockets: config.WEBHOOK_CONCURRENCY,
        }),
    },
    DeliveryProcessor,
    DeliveryJobs,
  ],
})
export class SendingModule {}
