import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { DISPATCHER_CONFIG, DispatcherConfig } from '../../config';
import { DueDelivery } from '../deliveries/delivery.types';
import { WebhookMetrics } from './webhook-metrics';

/**
 * The BullMQ side of delivery: one job per due attempt, with the deterministic id
 * `${delivery_id}-${attempt}`, so enqueueing the same attempt twice (after the intake, by the reconciler,
 * after a crash) adds one job. Jobs are removed when done: Postgres keeps the record, and a removed id can
 * be enqueued again if Postgres says the attempt is still due. Queue name: do not rename (deployed
 * workers and keys in Redis use it).
 */
export const DELIVERY_QUEUE = 'webhook-deliveries';

export interface DeliveryJob {
  delivery_id: string;
  attempt: number;
}

export function jobIdOf(delivery: Pick<DueDelivery, 'deliveryId' | 'attempt'>): string {
  return `${delivery.deliveryId}-${delivery.attempt}`;
}

@Injectable()
export class DeliveryQueue implements OnApplicationShutdown {
  readonly queue: Queue<DeliveryJob>;
  private readonly connection: Redis;

  constructor(
    @Inject(DISPATCHER_CONFIG) readonly config: DispatcherConfig,
    metrics: WebhookMetrics,
  ) {
    this.connection = new Redis(config.REDIS_URL, {
      maxRetriesPerRequest: null,
      connectionName: 'webhook-queue',
    });
    this.queue = new Queue<DeliveryJob>(DELIVERY_QUEUE, {
      connection: this.connection,
      prefix: config.WEBHOOK_QUEUE_PREFIX,
      defaultJobOptions: { attempts: 1, removeOnComplete: true, removeOnFail: true },
    });
    // BullMQ emits connection errors as events; the reconciler covers whatever they cost.
    this.queue.on('error', () => undefined);
    metrics.queueDepthSource = () => this.counts();
  }

  async enqueue(due: DueDelivery[]): Promise<void> {
    if (due.length === 0) return;
    const now = Date.now();
    await this.queue.addBulk(
      due.map((delivery) => ({
        name: 'deliver',
        data: { delivery_id: delivery.deliveryId, attempt: delivery.attempt },
        opts: { jobId: jobIdOf(delivery), delay: Math.max(0, delivery.dueAt.getTime() - now) },
      })),
    );
  }

  /** Which of these attempts have a job in Redis (in any state). */
  async held(due: DueDelivery[]): Promise<boolean[]> {
    return Promise.all(
      due.map(async (delivery) => (await this.queue.getJob(jobIdOf(delivery))) !== undefined),
    );
  }

  counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    this.connection.disconnect();
  }
}
