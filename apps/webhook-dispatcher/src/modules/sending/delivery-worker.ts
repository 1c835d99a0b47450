import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Worker } from 'bullmq';
import Redis from 'ioredis';
import { Logger } from 'pino';
import { LOGGER, traceJob } from '@paygrid/platform';
import { DISPATCHER_CONFIG, DispatcherConfig } from '../../config';
import { DELIVERY_QUEUE, DeliveryJob } from './delivery-queue';
import { DeliveryProcessor, ProcessOutcome } from './delivery-processor';

/**
 * The BullMQ worker: runs WEBHOOK_CONCURRENCY attempts at a time. Its lock and stalled-job check use
 * WEBHOOK_STALLED_INTERVAL_MS, so the jobs of a worker that died (kill -9, lost node) run again that
 * soon; a job that stalls twice is failed and removed, and the reconciler re-enqueues its delivery from
 * Postgres. A job that throws (database down) is removed the same way, never retried blindly by BullMQ.
 * Each job runs in a `deliver webhook` span, continuing the trace that enqueued it.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private worker?: Worker<DeliveryJob, ProcessOutcome>;
  private connection?: Redis;

  constructor(
    private readonly processor: DeliveryProcessor,
    @Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.connection = new Redis(this.config.REDIS_URL, {
      maxRetriesPerRequest: null,
      connectionName: 'webhook-worker',
    });
    this.worker = new Worker<DeliveryJob, ProcessOutcome>(
      DELIVERY_QUEUE,
      (job) =>
        traceJob(
          'deliver webhook',
          job.data.trace_context,
          { 'paygrid.delivery_id': job.data.delivery_id, 'paygrid.delivery.attempt': job.data.attempt },
          async (span) => {
            const outcome = await this.processor.process(job.data);
            span.setAttribute('paygrid.delivery.outcome', outcome);
            return outcome;
          },
        ),
      {
        connection: this.connection,
        prefix: this.config.WEBHOOK_QUEUE_PREFIX,
        concurrency: this.config.WEBHOOK_CONCURRENCY,
        lockDuration: this.config.WEBHOOK_STALLED_INTERVAL_MS,
        stalledInterval: this.config.WEBHOOK_STALLED_INTERVAL_MS,
        maxStalledCount: 1,
      },
    );
    this.worker.on('failed', (job, error) =>
      this.logger.error(
        { err: error, job_id: job?.id },
        'delivery job failed; the reconciler will enqueue it again',
      ),
    );
    this.worker.on('error', (error) => this.logger.warn({ err: error }, 'delivery worker error'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    this.connection?.disconnect();
  }
}
