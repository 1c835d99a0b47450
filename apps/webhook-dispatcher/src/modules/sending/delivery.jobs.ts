import { Injectable } from '@nestjs/common';
import { DurableJobRecord, Executor, HandleJob, JobRecord, JobRun, JobRunInfo } from '@paygrid/platform';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { DELIVERY_JOB, runOf } from './delivery-queue';
import { DeliveryProcessor } from './delivery-processor';
import { inDeliverySpan } from './delivery-span';
import { WebhookMetrics } from './webhook-metrics';

/**
 * Deliveries as durable jobs whose record is webhook_deliveries itself: a pending delivery's
 * `attempt_count + 1` at `next_attempt_at` is its due run, `lease_until` says a worker is sending it,
 * and the retry schedule (jitter, Retry-After) is the delivery's own (retry-policy.ts). The platform's
 * reconciler asks for the due runs no worker holds and puts back those Redis lost (a restart, a
 * FLUSHALL, a job that stalled twice, a crash between commit and enqueue); the processor claims and
 * records each attempt conditionally on its number, so a duplicated job sends nothing.
 */
@Injectable()
@DurableJobRecord(DELIVERY_JOB)
export class DeliveryJobs implements JobRecord {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly processor: DeliveryProcessor,
    private readonly metrics: WebhookMetrics,
  ) {}

  async dueRuns(executor: Executor, page: { limit: number; after?: JobRun }): Promise<JobRun[]> {
    const after = page.after && { deliveryId: page.after.id, dueAt: page.after.dueAt };
    return (await this.deliveries.dueWithoutLease(executor, page.limit, after)).map(runOf);
  }

  /** Deliveries held behind a failing endpoint that nothing else would release (DeliveryRepository). */
  releaseHeld(executor: Executor): Promise<number> {
    return this.deliveries.releaseStranded(executor);
  }

  reenqueued(runs: JobRun[]): void {
    this.metrics.reenqueued.inc(runs.length);
  }

  @HandleJob(DELIVERY_JOB)
  async deliver(deliveryId: string, run: JobRunInfo): Promise<void> {
    await inDeliverySpan(deliveryId, run.attempt, () =>
      this.processor.process({ delivery_id: deliveryId, attempt: run.attempt }),
    );
  }
}
