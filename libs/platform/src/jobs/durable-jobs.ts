import { Inject, Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Logger } from 'pino';
import { TransactionContext } from '../database/transaction-context';
import { LOGGER } from '../nest/tokens';
import { JobQueue } from './job-queue';
import { JobRegistry } from './job-registry';
import { JobStore } from './job-store';
import { JobRun, NewJob, RunData } from './job.types';

/**
 * What an app uses to put work off until later, so that it happens once the change that needs it has
 * committed, and survives restarts of the app and of Redis (docs/platform.md, "Durable jobs").
 *
 *   await jobs.schedule(context.tx, { kind: 'auto_capture', subjectId: attempt.id, dueAt });
 *
 * records the job in the caller's transaction (so it exists if and only if the change committed) and
 * hands it to BullMQ after the commit; the `@HandleJob('auto_capture')` method runs it when due.
 */
@Injectable()
export class DurableJobs {
  constructor(
    private readonly store: JobStore,
    private readonly registry: JobRegistry,
    private readonly jobQueue: JobQueue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Records the job in the caller's transaction; hands it to BullMQ after commit. */
  async schedule(tx: TransactionContext, job: NewJob): Promise<void> {
    if (
      this.registry.discovered &&
      (!this.registry.handlerOf(job.kind) || this.registry.recordOf(job.kind))
    ) {
      throw new Error(
        `cannot schedule job kind ${job.kind}: no @HandleJob handler records it in durable_jobs`,
      );
    }
    // The record's answer is not waited for (it rides with the transaction's next statement): its run is
    // known beforehand, and a (kind, subject) already scheduled records nothing (job-store.ts).
    const { run, record } = this.store.planned(job);
    tx.send(record);
    tx.afterCommit(() => this.enqueue([run]));
  }

  /**
   * Hands committed runs of a kind with its own record to BullMQ (call it after the commit that made
   * them due). Best effort: a failure is logged, and the reconciler enqueues them from the record.
   */
  async enqueue(runs: readonly JobRun[]): Promise<void> {
    try {
      await this.jobQueue.add(runs);
    } catch (error) {
      this.logger.warn(
        { err: error, count: runs.length },
        'enqueue after commit failed; the reconciler will enqueue from Postgres',
      );
    }
  }

  /** The app's BullMQ queue, for ops views (Bull Board) and job counts; not for adding jobs. */
  get queue(): Queue<RunData> {
    return this.jobQueue.queue;
  }

  counts(): Promise<Record<string, number>> {
    return this.jobQueue.counts();
  }
}
