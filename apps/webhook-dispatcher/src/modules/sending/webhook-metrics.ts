import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { Metrics } from '@paygrid/platform';

/**
 * The dispatcher's Prometheus series, on the app's registry (served at /metrics next to the platform's):
 * deliveries by final outcome, attempts by result, queue depth and pending deliveries (both sampled when
 * Prometheus scrapes), the event-to-delivery latency (event create_time to the 2xx), how many jobs
 * the reconciler had to put back into Redis, and which way new deliveries' first attempts went.
 */
export type AttemptResult = '2xx' | '3xx' | '4xx' | '5xx' | 'timeout' | 'network_error' | 'refused_address';

@Injectable()
export class WebhookMetrics {
  readonly deliveries: Counter<'outcome'>;
  readonly attempts: Counter<'result'>;
  readonly eventToDelivery: Histogram;
  readonly attemptDuration: Histogram<'result'>;
  readonly queueJobs: Gauge<'state'>;
  readonly pendingDeliveries: Gauge;
  readonly reenqueued: Counter;
  readonly firstAttempts: Counter<'path'>;
  /** Set by the queue: job counts by state. */
  queueDepthSource?: () => Promise<Record<string, number>>;
  /** Set by the processor: pending deliveries in Postgres. */
  pendingSource?: () => Promise<number>;

  constructor(metrics: Metrics) {
    const registers = [metrics.registry];
    this.deliveries = new Counter({
      name: 'paygrid_webhook_deliveries_total',
      help: 'Webhook deliveries that reached a final outcome (succeeded, failed, cancelled)',
      labelNames: ['outcome'],
      registers,
    });
    this.attempts = new Counter({
      name: 'paygrid_webhook_attempts_total',
      help: 'Webhook delivery attempts by result (2xx, 3xx, 4xx, 5xx, timeout, network_error, refused_address)',
      labelNames: ['result'],
      registers,
    });
    this.eventToDelivery = new Histogram({
      name: 'paygrid_webhook_event_to_delivery_seconds',
      help: 'From the event create_time to the 2xx of its delivery',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 36000, 86400],
      registers,
    });
    this.attemptDuration = new Histogram({
      name: 'paygrid_webhook_attempt_duration_seconds',
      help: 'How long one attempt took, by result',
      labelNames: ['result'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers,
    });
    this.queueJobs = new Gauge({
      name: 'paygrid_webhook_queue_jobs',
      help: 'Delivery jobs in Redis by state (sampled at scrape time)',
      labelNames: ['state'],
      registers,
      collect: async () => {
        const counts = await this.queueDepthSource?.().catch(() => undefined);
        for (const [state, count] of Object.entries(counts ?? {})) this.queueJobs.set({ state }, count);
      },
    });
    this.pendingDeliveries = new Gauge({
      name: 'paygrid_webhook_deliveries_pending',
      help: 'Deliveries waiting for an attempt in Postgres, the source of truth (sampled at scrape time)',
      registers,
      collect: async () => {
        const pending = await this.pendingSource?.().catch(() => undefined);
        if (pending !== undefined) this.pendingDeliveries.set(pending);
      },
    });
    this.reenqueued = new Counter({
      name: 'paygrid_webhook_reconciler_reenqueued_total',
      help: 'Due deliveries the reconciler found without a job in Redis and enqueued again',
      registers,
    });
    this.firstAttempts = new Counter({
      name: 'paygrid_webhook_first_attempts_total',
      help:
        "New deliveries by their first attempt's path: direct (sent by the intake), queued (no direct-send slot " +
        'or place in line free: a BullMQ job, as a retry), held (the endpoint is failing: waits for it to answer)',
      labelNames: ['path'],
      registers,
    });
  }

  resultOf(statusCode: number | null, error: string | null): AttemptResult {
    if (statusCode !== null) return `${Math.min(5, Math.floor(statusCode / 100))}xx` as AttemptResult;
    if (error?.startsWith('timed out')) return 'timeout';
    if (error?.startsWith('refused')) return 'refused_address';
    return 'network_error';
  }
}
