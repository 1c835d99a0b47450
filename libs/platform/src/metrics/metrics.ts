import { Counter, Histogram, Registry, collectDefaultMetrics, Gauge } from 'prom-client';

/**
 * Prometheus metrics of one app, on its own registry (served at /metrics). Names follow the
 * Prometheus conventions; the `app` label tells the six apps apart when scraped together.
 */
/**
 * How often the event-loop delay monitor samples (prom-client's `eventLoopMonitoringPrecision`, ms).
 * Its default, 10 ms, is a libuv timer that wakes every app 100 times a second even when idle; on this
 * 2-vCPU box those wake-ups were about 15 % of all context switches of a create-intent run. At 100 ms
 * the lag histogram still sees every stall that lasts past a sample (any stall an on-call engineer
 * acts on), for a tenth of the wake-ups. docs/performance.md, twelfth round.
 */
export const EVENT_LOOP_MONITORING_PRECISION_MS = 100;

export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly commandDuration: Histogram<'type' | 'outcome'>;
  readonly commandRequests: Histogram<'type' | 'outcome'>;
  readonly eventsConsumed: Counter<'topic' | 'outcome'>;
  readonly outboxPublished: Counter;
  readonly outboxBatches: Counter;
  readonly outboxPruned: Counter;
  readonly outboxPending: Gauge;
  /** Set by the outbox lifecycle: counts unpublished rows when Prometheus scrapes. */
  outboxPendingSource?: () => Promise<number>;

  constructor(app: string) {
    this.registry.setDefaultLabels({ app });
    collectDefaultMetrics({
      register: this.registry,
      eventLoopMonitoringPrecision: EVENT_LOOP_MONITORING_PRECISION_MS,
    });
    const registers = [this.registry];
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers,
    });
    this.commandDuration = new Histogram({
      name: 'paygrid_command_handle_duration_seconds',
      help: 'Time a service spends handling one command',
      labelNames: ['type', 'outcome'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers,
    });
    this.commandRequests = new Histogram({
      name: 'paygrid_command_round_trip_seconds',
      help: 'Time from sending a command to its reply, as the sender sees it',
      labelNames: ['type', 'outcome'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 10],
      registers,
    });
    this.eventsConsumed = new Counter({
      name: 'paygrid_events_consumed_total',
      help: 'Domain events consumed, by outcome (applied, duplicate, malformed, failed)',
      labelNames: ['topic', 'outcome'],
      registers,
    });
    this.outboxPublished = new Counter({
      name: 'paygrid_outbox_published_total',
      help: 'Outbox rows published to Kafka',
      registers,
    });
    this.outboxBatches = new Counter({
      name: 'paygrid_outbox_batches_total',
      help: 'Outbox relay batches published to Kafka (rows per batch: paygrid_outbox_published_total over this)',
      registers,
    });
    this.outboxPruned = new Counter({
      name: 'paygrid_outbox_pruned_total',
      help: 'Published outbox rows deleted past OUTBOX_RETENTION_HOURS',
      registers,
    });
    this.outboxPending = new Gauge({
      name: 'paygrid_outbox_pending',
      help: 'Outbox rows not yet published (sampled at scrape time)',
      registers,
      collect: async () => {
        if (this.outboxPendingSource) this.outboxPending.set(await this.outboxPendingSource());
      },
    });
  }
}
