import {
  Inject,
  Injectable,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  SetMetadata,
} from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { Logger } from 'pino';
import { LOGGER, rowsOf, TransactionContext } from '@paygrid/platform';
import { ISSUING_CONFIG, IssuingConfig } from '../../config';

/**
 * INTERIM: a small Postgres-record timer with the API of the platform's durable jobs module
 * (SKELETON.md §5: `DurableJobs.schedule(tx, {kind, subjectId, dueAt})`, `@HandleJob(kind)`), used until that
 * module lands on main. Moving onto it: import DurableJobs and HandleJob from @paygrid/platform instead of this
 * file, pass `jobs: { queue: 'issuing-jobs' }` to PlatformModule.forRoot, drop this file and add a migration
 * dropping `interim_jobs`.
 *
 * What it guarantees meanwhile: a job exists if and only if the transaction that scheduled it committed (it is
 * a row written in it); one job per (kind, subject), scheduling again keeps the first; a due job runs on one
 * instance at a time (a lease taken by a conditional update) and again after a failure (backoff) or when the
 * instance running it died (the lease expires); handlers may run twice and must re-read their state.
 */
export interface NewJob {
  kind: string;
  subjectId: string;
  dueAt: Date;
}
export interface JobRunInfo {
  kind: string;
  id: string;
  attempt: number;
}
type JobHandler = (subjectId: string, run: JobRunInfo) => Promise<unknown>;

const JOB_HANDLER = 'issuing:interim-job-handler';
export function HandleJob(kind: string) {
  const mark = SetMetadata<string, string>(JOB_HANDLER, kind);
  return (target: object, key: string | symbol, descriptor: { value?: JobHandler }): void => {
    mark(target, key, descriptor as PropertyDescriptor);
  };
}

const LEASE_SECONDS = 60;
const BATCH = 20;
const MAX_BACKOFF_MS = 30_000;

@Injectable()
export class DurableJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly handlers = new Map<string, JobHandler>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private wakeRequested = false;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @Inject(ISSUING_CONFIG) private readonly config: Pick<IssuingConfig, 'JOBS_POLL_INTERVAL_MS'>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Records the job in the caller's transaction; the poller is woken after the commit. */
  async schedule(tx: TransactionContext, job: NewJob): Promise<void> {
    if (!this.handlers.has(job.kind)) throw new Error(`cannot schedule job kind ${job.kind}: no @HandleJob handler`);
    await tx.manager.query(
      `INSERT INTO interim_jobs (kind, subject_id, due_at) VALUES ($1, $2, $3) ON CONFLICT (kind, subject_id) DO NOTHING`,
      [job.kind, job.subjectId, job.dueAt],
    );
    tx.afterCommit(() => this.wakeAt(job.dueAt));
  }

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      for (const name of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const method = instance[name];
        if (typeof method !== 'function') continue;
        const kind = this.reflector.get<string | undefined>(JOB_HANDLER, method);
        if (!kind) continue;
        if (this.handlers.has(kind)) throw new Error(`two handlers claim job kind ${kind}`);
        this.handlers.set(kind, (method as JobHandler).bind(instance));
      }
    }
    this.timer = setInterval(() => this.wake(), this.config.JOBS_POLL_INTERVAL_MS);
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private wakeAt(dueAt: Date): void {
    const delay = dueAt.getTime() - Date.now();
    if (delay <= 0) this.wake();
    else setTimeout(() => this.wake(), delay).unref();
  }

  private wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wakeRequested = true;
      return;
    }
    this.running = this.drain()
      .catch((error) => this.logger.error({ err: error }, 'interim job poller failed; retrying on the next tick'))
      .finally(() => {
        this.running = undefined;
        if (this.wakeRequested) {
          this.wakeRequested = false;
          this.wake();
        }
      });
  }

  private async drain(): Promise<void> {
    for (;;) {
      const leased = rowsOf<{ kind: string; subject_id: string; attempts: number }>(
        await this.dataSource.query(
          `UPDATE interim_jobs SET lease_until = now() + make_interval(secs => $1), attempts = attempts + 1
            WHERE (kind, subject_id) IN (
              SELECT kind, subject_id FROM interim_jobs
               WHERE completed_at IS NULL AND due_at <= now() AND (lease_until IS NULL OR lease_until < now())
               ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED)
            RETURNING kind, subject_id, attempts`,
          [LEASE_SECONDS, BATCH],
        ),
      );
      if (leased.length === 0 || this.stopped) return;
      await Promise.all(leased.map((job) => this.run(job.kind, job.subject_id, job.attempts)));
    }
  }

  private async run(kind: string, subjectId: string, attempt: number): Promise<void> {
    const handler = this.handlers.get(kind);
    try {
      if (!handler) throw new Error(`no handler for job kind ${kind}`);
      await handler(subjectId, { kind, id: `${kind}:${subjectId}`, attempt });
      await this.dataSource.query(`UPDATE interim_jobs SET completed_at = now(), lease_until = NULL WHERE kind = $1 AND subject_id = $2`, [kind, subjectId]);
    } catch (error) {
      const backoffMs = Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.min(attempt, 10));
      this.logger.warn({ err: error, kind, subject_id: subjectId, attempt }, 'job failed; it runs again after a backoff');
      await this.dataSource.query(
        `UPDATE interim_jobs SET lease_until = NULL, due_at = now() + make_interval(secs => $3), last_error = $4
          WHERE kind = $1 AND subject_id = $2`,
        [kind, subjectId, backoffMs / 1000, String(error instanceof Error ? error.message : error).slice(0, 500)],
      );
    }
  }
}

export class InterimJobsTable1760000000002 implements MigrationInterface {
  name = 'InterimJobsTable1760000000002';
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE interim_jobs (
        kind          text        NOT NULL,
        subject_id    text        NOT NULL,
        due_at        timestamptz NOT NULL,
        attempts      int         NOT NULL DEFAULT 0,
        lease_until   timestamptz,
        last_error    text,
        completed_at  timestamptz,
        created_at    timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (kind, subject_id)
      )`);
    await runner.query(`CREATE INDEX interim_jobs_due ON interim_jobs (due_at) WHERE completed_at IS NULL`);
  }
  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE interim_jobs');
  }
}

@Module({ imports: [DiscoveryModule], providers: [DurableJobs], exports: [DurableJobs] })
export class InterimJobsModule {}
