import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DISPATCHER_CONFIG, DispatcherConfig } from '../../config';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { DELIVERY_QUEUE, DeliveryQueue } from '../sending/delivery-queue';
import { OpsTokenGuard } from './ops-token.guard';

/**
 * The on-call view of the delivery queue on the dispatcher's own port (never through the gateway):
 * job counts by state in Redis next to delivery counts by status in Postgres, the source of truth. A
 * large gap between Postgres `pending` and the Redis jobs is what the platform's job reconciler closes.
 * Bull Board (bull-board.ts, `/ops/board`, same token) shows the jobs themselves.
 */
@Controller('ops/queues')
@UseGuards(OpsTokenGuard)
export class OpsQueuesController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
    @Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig,
  ) {}

  @Get()
  async summary() {
    const [jobs, deliveries] = await Promise.all([
      this.queue.counts(),
      this.deliveries.countByStatus(this.dataSource),
    ]);
    return {
      queue: DELIVERY_QUEUE,
      prefix: this.config.WEBHOOK_QUEUE_PREFIX,
      jobs,
      deliveries,
      retry_schedule_ms: this.config.WEBHOOK_RETRY_SCHEDULE_MS,
    };
  }
}
