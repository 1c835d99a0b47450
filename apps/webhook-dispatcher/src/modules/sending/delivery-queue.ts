import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { DurableJobs, GroupCommit, JobRun, JobsOptions, jobTraceContext } from '@paygrid/platform';
import { DispatcherConfig } from '../../config';
import { DueDelivery } from '../deliveries/delivery.types';
import { WebhookMetrics } from './webhook-metrics';

/**
 * Delivery attempts as durable-job runs: each due attempt is one run of the `webhook_delivery` job of
 * its delivery (the webhook_deliveries row is the record, see delivery.jobs.ts), so BullMQ holds one
 * job per attempt under the id `${delivery_id}-${attempt}` and enqueueing the same attempt twice
 * (after the intake, by the reconciler, after a crash) adds one job. The platform's jobs module owns
 * the queue, the worker and the reconciler; this is the dispatcher's name for handing attempts to it.
 * Queue name: do not rename (deployed workers and keys in Redis use it).
 */
export const DELIVERY_QUEUE = 'webhook-deliveries';
export const DELIVERY_JOB = 'webhook_delivery';

export interface DeliveryJob {
  delivery_id: string;
  attempt: number;
}

/** The dispatcher's queue settings, from its own variables (docs/webhooks.md, "Configuration"). */
export function deliveryJobsOptions(config: DispatcherConfig): JobsOptions {
  return {
    queue: DELIVERY_QUEUE,
    prefix: config.WEBHOOK_QUEUE_PREFIX,
    concurrency: config.WEBHOOK_CONCURRENCY,
    reconcileIntervalMs: config.WEBHOOK_RECONCILE_INTERVAL_MS,
    stalledIntervalMs: config.WEBHOOK_STALLED_INTERVAL_MS,
  };
}

export function runOf(due: DueDelivery): JobRun {
  return { kind: DELIVERY_JOB, id: due.deliveryId, attempt: due.attempt, dueAt: due.dueAt };
}

@Injectable()
export class DeliveryQueue {
  /** Retries of attempts that finished together, handed to BullMQ in one round trip (see `enqueueRetry`). */
  private readonly retries: GroupCommit<JobRun, void>;

  constructor(
    private readonly jobs: DurableJobs,
    metrics: WebhookMetrics,
  ) {
    metrics.queueDepthSource = () => this.counts();
    this.retries = new GroupCommit<JobRun, void>(async (runs) => {
      await this.jobs.enqueue(runs);
      return runs.map(() => undefined);
    });
  }

  /** Best effort after the commit that made them due: the reconciler enqueues whatever this misses. */
  enqueue(due: DueDelivery[]): Promise<void> {
    return this.jobs.enqueue(due.map(runOf));
  }

  /**
   * One delivery's next attempt, enqueued with the others of the moment in one BullMQ call: a failing
   * endpoint's retries cost one Redis round trip per batch, not one each. Each keeps its own trace.
   * Best effort, as `enqueue`.
   */
  enqueueRetry(due: DueDelivery): Promise<void> {
    return this.retries.submit({ ...runOf(due), traceContext: jobTraceContext() });
  }

  /** The BullMQ queue, for Bull Board and tests. */
  get queue(): Queue {
    return this.jobs.queue;
  }

  counts(): Promise<Record<string, number>> {
    return this.jobs.counts();
  }
}
