import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Logger } from 'pino';
import { LOGGER } from '../nest/tokens';
import { JobMetrics } from './job-metrics';
import { JobQueue } from './job-queue';
import { JobRegistry } from './job-registry';
import { JobStore } from './job-store';
import { JOBS_OPTIONS } from './jobs.tokens';
import { JobRecord, JobRun, ResolvedJobsOptions } from './job.types';
import { withDeadline } from '../bootstrap/with-deadline';
import { transactionWithSettings } from '../database/transaction-context';

/**
 * Never lose a job (architecture rule 9): every `reconcileIntervalMs`, the runs Postgres says are due
 * and that no worker holds (pending `durable_jobs` rows and every own record's due runs) are checked
 * against Redis, and each one Redis does not hold in a runnable state is enqueued again under its run's
 * job id. That covers a Redis restart, FLUSHALL or partial loss, a job that stalled twice, and a
 * process that died between its commit and its enqueue; a run held under an expired lease (its worker
 * died) comes back as the next run. A record that holds work back on purpose first releases what nothing
 * else would (`JobRecord.releaseHeld`), so the same pass enqueues it.
 *
 * With local timers on (local-job-timers.ts), a run becomes the reconciler's `localGraceMs` after its due
 * time: until then the timer of the process that enqueued it is about to start it, and re-enqueueing it
 * would only make a second, stale run (and a false "Redis lost it" on the metric).
 *
 * One replica works per tick and queue: a transaction-scoped advisory lock elects it and the others
 * skip the tick. A pass has a deadline, so a Redis that does not answer cannot stop the ticks (the
 * stuck pass's commands wait in ioredis's offline queue; its transaction ends once Redis answers).
 */
const RECONCILER_LOCK_CLASS = 748_213_006;
const PAGE = 500;
/** Up to this many due runs are checked per record and pass; the rest wait for the next tick. */
const MAX_PAGES = 20;
const PASS_DEADLINE_MS = 15_000;

/**
 * The settings of a pass's transaction, written with its BEGIN. A pass reads queues (runs due, deliveries held
 * behind a failing endpoint) whose backlogs grow faster than autovacuum analyzes, so its plans are made on
 * statistics that miss them: a bitmap scan then reads a whole range of an index before a LIMIT could stop it
 * (a failing endpoint's 20,000 held deliveries, to find its one probe), and the misestimated cost starts JIT
 * compilation, 40-70 ms a pass for statements that run in a few (docs/performance.md §49). Every statement of
 * a pass is a keyed or ordered read, which neither helps.
 */
export const RECONCILER_PASS_SETTINGS = ['SET LOCAL enable_bitmapscan = off', 'SET LOCAL jit = off'] as const;

@Injectable()
export class JobReconciler {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = true;

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: JobStore,
    private readonly registry: JobRegistry,
    private readonly queue: JobQueue,
    private readonly metrics: JobMetrics,
    @Inject(JOBS_OPTIONS) private readonly options: ResolvedJobsOptions,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass; returns how many runs it enqueued again (0 when another replica holds the lock). */
  reconcile(): Promise<number> {
    const pass = transactionWithSettings(this.dataSource, RECONCILER_PASS_SETTINGS, async (manager) => {
      const [lock] = await manager.query('SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS acquired', [
        RECONCILER_LOCK_CLASS,
        this.options.queue,
      ]);
      if (!lock.acquired) return 0;
      let restored = await this.restoreDue(manager, this.store);
      for (const [, record] of this.registry.ownRecords()) restored += await this.restoreDue(manager, record);
      return restored;
    });
    return withDeadline(pass, PASS_DEADLINE_MS, `a reconciler pass took longer than ${PASS_DEADLINE_MS} ms`);
  }

  private async restoreDue(
    manager: EntityManager,
    record: Pick<JobRecord, 'dueRuns' | 'reenqueued' | 'releaseHeld'>,
  ): Promise<number> {
    const released = (await record.releaseHeld?.(manager)) ?? 0;
    if (released > 0)
      this.logger.info({ count: released }, 'released held job runs that nothing else would make due');
    let restored = 0;
    let after: JobRun | undefined;
    const grace = this.options.localHorizonMs > 0 ? this.options.localGraceMs : 0;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const fetched = await record.dueRuns(manager, { limit: PAGE, after });
      // Oldest first: once a run is inside the grace, so is every later one.
      const cutoff = Date.now() - grace;
      const due = fetched.filter((run) => run.dueAt.getTime() <= cutoff);
      if (due.length === 0) break;
      const lost = await this.queue.restore(due);
      if (lost.length > 0) {
        restored += lost.length;
        for (const run of lost) this.metrics.reenqueued.inc({ kind: run.kind });
        record.reenqueued?.(lost);
        this.logger.info(
          { count: lost.length, kind: lost[0].kind },
          're-enqueued due job runs that Redis did not hold',
        );
      }
      if (due.length < PAGE) break;
      after = due[due.length - 1];
    }
    return restored;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.reconcile()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'job reconciler pass failed; will retry'))
        .finally(() => this.schedule(this.options.reconcileIntervalMs));
    }, delayMs);
  }
}
