import { Module } from '@nestjs/common';
import { WebhookSecretsModule } from '../secrets/webhook-secrets.module';
import { DeliveryQueue } from '../sending/delivery-queue';
import { WebhookMetrics } from '../sending/webhook-metrics';
import { DeliveryCommandHandlers } from './delivery.commands';
import { DeliveryRepository } from './delivery.repository';
import { DeliveryService } from './delivery.service';

/**
 * Deliveries: the durable record of what must still be sent (Postgres), its schedule (the BullMQ
 * DeliveryQueue) and its counters, and the delivery commands. The bottom of the dispatcher's features:
 * endpoints, the event intake and the sending worker all build on what it exports, and it needs none of
 * them (what a delivery must know of its endpoint it reads itself, opening the endpoint's sealed secrets
 * with the secrets module).
 */
@Module({
  imports: [WebhookSecretsModule],
  providers: [DeliveryRepository, DeliveryService, DeliveryCommandHandlers, DeliveryQueue, WebhookMetrics],
  exports: [DeliveryRepository, DeliveryQueue, WebhookMetrics],
})
export class DeliveriesModule {}
