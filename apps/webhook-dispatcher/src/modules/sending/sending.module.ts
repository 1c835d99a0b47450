import { Module } from '@nestjs/common';
import { APP_CONFIG, privateUrlsAllowed } from '@paygrid/platform';
import { DispatcherConfig } from '../../config';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { DeliveryProcessor } from './delivery-processor';
import { DeliveryJobs } from './delivery.jobs';
import { DirectSends } from './direct-sends';
import { WebhookSender } from './webhook-sender';

/**
 * Sending: each due attempt of a delivery, run as a durable job of the platform (delivery.jobs.ts),
 * signed and sent, its outcome recorded (delivery-processor.ts); a fresh delivery's first attempt sent by
 * the intake itself (direct-sends.ts). Builds on deliveries and endpoints.
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
          // Job attempts and the intake's direct first attempts send side by side.
          maxSockets: config.WEBHOOK_CONCURRENCY + config.WEBHOOK_DIRECT_SENDS,
        }),
    },
    DeliveryProcessor,
    DeliveryJobs,
    DirectSends,
  ],
  exports: [DirectSends],
})
export class SendingModule {}
