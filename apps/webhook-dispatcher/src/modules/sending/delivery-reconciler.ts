import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import { LOGGER } from '@paygrid/platform';
import { DISPATCHER_CONFIG, DispatcherConfig } from '../../config';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { DeliveryQueue } from './delivery-queue';
import { WebhookMetrics } from './webhook-metrics';

/**
 * Never lose a delivery (architecture rule 9): every WEBHOOK_RECONCILE_INTERVAL_MS, the pending
 * deliveries that are due and not leased by a worker are checked against Redis, and those without a job
 * are enqueued again under their deterministic job id. That covers a Redis restart or FLUSHALL, a job
 * that stalled twice or threw, and a process that died between its commit and its enqueue.
 *
 * One replica works per tick: a transaction-scoped advisory lock elects it (the others skip the tick), so
 * replicas do not all scan the same rows. Idempotent either way.
 */
const RECONCILER_LOCK_ID = 748_213_005;
const BATCH = 500;

@Injectable()
export class DeliveryReconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
    private readonly metrics: WebhookMetrics,
    @Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass; returns how many deliveries it enqueued again (0 when another replica holds the lock). */
  reconcile(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const [lock] = await manager.query('SELECT pg_try_advisory_xact_lock($1) AS acquired', [
        RECONCILER_LOCK_ID,
      ]);
      if (!lock.acquired) return 0;
      const due = await this.deliveries.dueWithoutLease(manager, BATCH);
      if (due.length === 0) return 0;
      const held = await this.queue.held(due);
      const missing = due.filter((_, index) => !held[index]);
      await this.queue.enqueue(missing);
      if (missing.length > 0) {
        this.metrics.reenqueued.inc(missing.length);
        this.logger.info({ count: missing.length }, 're-enqueued due deliveries that Redis did not hold');
      }
      return missing.length;
    });
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.reconcile()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'reconciler pass failed; will retry'))
        .finally(() => this.schedule(this.config.WEBHOOK_RECONCILE_INTERVAL_MS));
    }, delayMs);
  }
}
