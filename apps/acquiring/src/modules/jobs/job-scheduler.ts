import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Job, Queue, Worker } from 'bullmq';
import Redis from 'ioredis';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { Executor, LOGGER, traceJob } from '@paygrid/platform';
import { ACQUIRING_CONFIG, AcquiringConfig } from '../../config';
import { JobRepository } from './job.repository';
import { JOB_KINDS, JOB_QUEUE_NAME, JobHandler, JobKind, ScheduledJob } from './job.types';

/**
 * Durable delayed work. `schedule` writes the job row in the caller's transaction (so it exists iff
 * the change that needs it committed); `enqueue` hands it to a BullMQ delayed job after commit; the
 * reconciler re-enqueues every pending row that Redis does not hold (never enqueued, lost with a Redis
 * restart, or failed for good), so a job survives restarts of both the service and Redis.
 *
 * Handlers are registered by the modules at init; boot fails if a kind has none or two. A handler must
 * be idempotent: a job can run twice (a stalled BullMQ job, two replicas' reconcilers), so each one
 * changes state only through conditional updates.
 */
interface JobData {
  jobId: string;
}

/** Past-due rows older than this are checked against Redis on every pass. */
const RECONCILE_GRACE_MS = 5000;
const RECONCILE_BATCH = 200;
const LIVE_STATES = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);

@Injectable()
export class JobScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly handlers = new Map<JobKind, JobHandler>();
  private connection?: Redis;
  private queue?: Queue<JobData>;
  private worker?: Worker<JobData>;
  private timer?: NodeJS.Timeout;
  private reconciling?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobRepository,
    @Inject(ACQUIRING_CONFIG) private readonly config: AcquiringConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  register(kind: JobKind, handler: JobHandler): void {
    if (this.handlers.has(kind)) throw new Error(`two handlers claim job kind ${kind}`);
    this.handlers.set(kind, handler);
  }

  /** Records the job in the caller's transaction; call `enqueue` with the result after commit. */
  schedule(executor: Executor, kind: JobKind, subjectId: string, dueAt: Date): Promise<ScheduledJob> {
    return this.jobs.schedule(executor, kind, subjectId, dueAt);
  }

  /** Best effort: a failure here is repaired by the reconciler's next pass. */
  async enqueue(jobs: readonly ScheduledJob[]): Promise<void> {
    if (!this.queue || jobs.length === 0) return;
    try {
      await Promise.all(jobs.map((job) => this.add(job)));
      await this.jobs.markEnqueued(this.dataSource, jobs.map((job) => job.jobId));
    } catch (error) {
      this.logger.warn({ err: error }, 'enqueue after commit failed; the reconciler will retry');
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    const missing = JOB_KINDS.filter((kind) => !this.handlers.has(kind));
    if (missing.length > 0) throw new Error(`no handler for job kind(s) ${missing.join(', ')}`);
    this.connection = new Redis(this.config.REDIS_URL, { maxRetriesPerRequest: null, connectionName: 'acquiring-jobs' });
    const options = { connection: this.connection, prefix: this.config.JOBS_PREFIX };
    this.queue = new Queue<JobData>(JOB_QUEUE_NAME, options);
    // Each run is a trace of its own (an auto-capture hours after the create): its events carry it onward.
    const run = (job: Job<JobData>) =>
      traceJob(`job ${job.name}`, undefined, { 'paygrid.job.kind': job.name }, () => this.run(job));
    this.worker = new Worker<JobData>(JOB_QUEUE_NAME, run, { ...options, concurrency: 8 });
    this.worker.on('failed', (job, error) =>
      this.logger.warn({ err: error, job_id: job?.data.jobId, kind: job?.name }, 'acquiring job failed; will retry'),
    );
    this.worker.on('error', (error) => this.logger.error({ err: error }, 'acquiring job worker error'));
    this.timer = setInterval(() => void this.reconcile(), this.config.JOBS_RECONCILE_INTERVAL_MS);
    this.timer.unref();
    await this.reconcile();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.reconciling;
    await this.worker?.close();
    await this.queue?.close();
    this.connection?.disconnect();
  }

  /** One pass: every pending row that may be missing from Redis is (re-)added under its own job id. */
  reconcile(): Promise<void> {
    if (this.reconciling || this.stopped) return this.reconciling ?? Promise.resolve();
    this.reconciling = this.reconcileOnce()
      .catch((error) => this.logger.warn({ err: error }, 'job reconciliation failed; will retry'))
      .finally(() => {
        this.reconciling = undefined;
      });
    return this.reconciling;
  }

  private async reconcileOnce(): Promise<void> {
    const due = await this.jobs.needingEnqueue(this.dataSource, RECONCILE_GRACE_MS, RECONCILE_BATCH);
    if (due.length === 0 || !this.queue) return;
    const held: string[] = [];
    for (const job of due) {
      const existing = await this.queue.getJob(job.jobId);
      const state = existing ? await existing.getState() : 'missing';
      if (!LIVE_STATES.has(state)) {
        // Lost with Redis, failed for good, or completed without the row being marked: add it afresh.
        await existing?.remove();
        await this.add(job);
      }
      held.push(job.jobId);
    }
    await this.jobs.markEnqueued(this.dataSource, held);
  }

  private async add(job: ScheduledJob): Promise<void> {
    await this.queue?.add(
      job.kind,
      { jobId: job.jobId },
      {
        jobId: job.jobId,
        delay: Math.max(0, job.dueAt.getTime() - Date.now()),
        attempts: 8,
        backoff: { type: 'exponential', delay: 500 },
        removeOnComplete: true,
        removeOnFail: 1000,
      },
    );
  }

  private async run(job: Job<JobData>): Promise<void> {
    const scheduled = await this.jobs.find(this.dataSource, job.data.jobId);
    if (!scheduled || scheduled.state === 'done') return;
    const handler = this.handlers.get(scheduled.kind);
    if (!handler) throw new Error(`no handler for job kind ${scheduled.kind}`);
    try {
      await handler(scheduled.subjectId);
      await this.jobs.markDone(this.dataSource, scheduled.jobId);
    } catch (error) {
      await this.jobs
        .recordFailure(this.dataSource, scheduled.jobId, error instanceof Error ? error.message : String(error))
        .catch(() => undefined);
      throw error;
    }
  }
}
