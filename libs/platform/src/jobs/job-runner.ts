import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import { GroupCommit } from '../database/group-commit';
import { GENERIC_PLANS, transactionEndingWith } from '../database/transaction-context';
import { LOGGER } from '../nest/tokens';
import { runWithCorrelation } from '../logging/correlation';
import { JobMetrics, RunOutcome } from './job-metrics';
import { JobQueue } from './job-queue';
import { JobRegistry } from './job-registry';
import { ClaimedJob, JobStore, RunRef } from './job-store';
import { JOBS_OPTIONS } from './jobs.tokens';
import { backoffDelayMs, bullJobIdOf, JobRunInfo, ResolvedJobsOptions, runDataOf } from './job.types';

/**
 * What a worker does with one BullMQ job (one run). For a `durable_jobs` kind:
 * 1. claim the run in Postgres (attempts n - 1 → n, under a lease): a stale or duplicated job, or one a
 *    live worker already holds, stops here having run nothing;
 * 2. run the handler, renewing the lease while it runs;
 * 3. record the outcome conditionally on the run: `done` (unless the handler recorded it in its own last
 *    transaction, `JobRunInfo.completeIn`: one commit fewer); or, if it threw, the next run after a backoff
 *    (enqueued at once, and due again in Postgres should that enqueue be lost); or `failed` with its
 *    error once `maxAttempts` runs failed.
 * A process killed between 2 and 3 leaves the run leased; once the lease expires the reconciler
 * enqueues the next run, so the handler may run again: that is why handlers are idempotent.
 *
 * For a kind with its own record, the handler claims and records the run itself; a throw is logged
 * and the reconciler runs it again once its record says it is due.
 */
@Injectable()
export class JobRunner {
  /**
   * Claims of runs starting together (a local timer's slot, local-job-timers.ts) share a statement: one
   * commit for the lot instead of one each. The first waits a millisecond for the others of its turn; a
   * failed statement is tried again per run, so one bad claim fails only its own run.
   *
   * The shared statement runs under generic plans (BEGIN, the setting, the statement and COMMIT in one round
   * trip): its custom plans know how many runs it names and so always look cheaper than the generic one, and
   * were planned on every call, 0.2 ms each, as long as executing it (docs/performance.md §30).
   */
  private readonly claims = new GroupCommit<RunRef, ClaimedJob | undefined>(
    (runs) =>
      transactionEndingWith(this.dataSource, [GENERIC_PLANS], async () =>
        this.store.claimAllStatement(runs, this.options.leaseMs),
      ),
    100,
    {
      gatherMs: 1,
      alone: (run) => this.store.claim(this.dataSource, run.id, run.attempt, this.options.leaseMs),
    },
  );

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: JobStore,
    private readonly registry: JobRegistry,
    private readonly queue: JobQueue,
    private readonly metrics: JobMetrics,
    @Inject(JOBS_OPTIONS) private readonly options: ResolvedJobsOptions,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Never throws for a handler's failure: the record, not BullMQ, decides what runs next. */
  async run(kind: string, data: unknown): Promise<RunOutcome> {
    const runData = runDataOf(data);
    if (!runData) {
      this.logger.warn(
        { kind, data },
        'dropping a job that is not a durable-job run; the reconciler re-enqueues from Postgres',
      );
      return this.count(kind, 'dropped');
    }
    const run: JobRunInfo = { kind, ...runData };
    return runWithCorrelation(bullJobIdOf(run), () =>
      this.registry.recordOf(kind) ? this.runOwnRecord(run) : this.runRecorded(run),
    );
  }

  private async runOwnRecord(run: JobRunInfo): Promise<RunOutcome> {
    try {
      await this.registry.handlerOf(run.kind)?.(run.id, run);
      return this.count(run.kind, 'succeeded');
    } catch (error) {
      this.logger.error(
        { err: error, kind: run.kind, id: run.id, attempt: run.attempt },
        'job run threw; the reconciler runs it again when its record says it is due',
      );
      return this.count(run.kind, 'retried');
    }
  }

  private async runRecorded(run: JobRunInfo): Promise<RunOutcome> {
    const claimed = await this.claims.submit(run);
    if (!claimed) return this.count(run.kind, 'stale');
    // Set once the handler's transaction that recorded the run done has committed: whether that `done`
    // found the run still this worker's (answered before the COMMIT it rode with).
    let committedCompletion: Promise<boolean> | undefined;
    const info: JobRunInfo = {
      ...run,
      kind: claimed.kind,
      completeIn: async (tx) => {
        const completion = this.store.completeWithin(tx, run.id, run.attempt);
        tx.afterCommit(() => {
          committedCompletion = completion;
          lease.stop(); // the run is done, or was already no longer this worker's: no lease to renew
        });
      },
    };
    const lease = this.keepLease(info);
    try {
      const handler = this.registry.handlerOf(claimed.kind);
      if (!handler) throw new Error(`no handler for job kind ${claimed.kind}`);
      await handler(claimed.subjectId, info);
    } catch (error) {
      lease.stop();
      if (await committedCompletion) {
        // Its transaction recorded it done: what failed after that cannot be retried by the run.
        this.logger.warn(
          { err: error, kind: info.kind, id: info.id },
          'job run threw after it was recorded done',
        );
        return this.count(info.kind, 'succeeded');
      }
      return this.afterFailure(info, claimed.subjectId, error);
    }
    lease.stop();
    if (await committedCompletion) return this.count(info.kind, 'succeeded');
    if (!(await this.store.complete(this.dataSource, info.id, info.attempt))) {
      this.logger.warn(
        { kind: info.kind, id: info.id, attempt: info.attempt },
        'job run finished after its lease was lost to a later run',
      );
    }
    return this.count(info.kind, 'succeeded');
  }

  private async afterFailure(run: JobRunInfo, subjectId: string, error: unknown): Promise<RunOutcome> {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
    const context = { err: error, kind: run.kind, id: run.id, subject_id: subjectId, attempt: run.attempt };
    if (run.attempt >= this.options.maxAttempts) {
      await this.store.fail(this.dataSource, run.id, run.attempt, message);
      this.logger.error(context, `durable job failed ${run.attempt} times; left failed for on-call`);
      return this.count(run.kind, 'failed');
    }
    const next = await this.store.retryLater(
      this.dataSource,
      run.id,
      run.attempt,
      message,
      backoffDelayMs(run.attempt, this.options),
    );
    if (next) {
      await this.queue
        .add([next])
        .catch((enqueueError: unknown) =>
          this.logger.warn(
            { err: enqueueError, id: run.id },
            'enqueue of a retry failed; the reconciler will',
          ),
        );
    }
    this.logger.warn(context, 'durable job run failed; will retry');
    return this.count(run.kind, 'retried');
  }

  /** Renews the run's lease every third of it while the handler runs. */
  private keepLease(run: JobRunInfo): { stop(): void } {
    const timer = setInterval(
      () => {
        this.store
          .renew(this.dataSource, run.id, run.attempt, this.options.leaseMs)
          .then((held) => {
            if (!held)
              this.logger.warn(
                { kind: run.kind, id: run.id, attempt: run.attempt },
                'job run lost its lease',
              );
          })
          .catch((error: unknown) => this.logger.warn({ err: error, id: run.id }, 'lease renewal failed'));
      },
      Math.max(100, Math.floor(this.options.leaseMs / 3)),
    );
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  private count(kind: string, outcome: RunOutcome): RunOutcome {
    this.metrics.runs.inc({ kind, outcome });
    return outcome;
  }
}
