import { Injectable } from '@nestjs/common';
import { TransactionContext } from '@paygrid/platform';
import { JobScheduler } from '../modules/jobs/job-scheduler';
import { JobKind, ScheduledJob } from '../modules/jobs/job.types';

/**
 * Stands in for libs/platform's DurableJobs (SKELETON §5, being built) over this app's own scheduler,
 * so the call sites already read `jobs.schedule(tx, {kind, subjectId, dueAt})`: the job row is written
 * in the caller's transaction and handed to BullMQ after commit, all of a transaction's jobs at once.
 * Removed when the platform module lands.
 */
export interface DurableJob {
  kind: JobKind;
  subjectId: string;
  dueAt: Date;
}

@Injectable()
export class DurableJobs {
  private readonly scheduled = new WeakMap<TransactionContext, ScheduledJob[]>();

  constructor(private readonly scheduler: JobScheduler) {}

  async schedule(tx: TransactionContext, job: DurableJob): Promise<void> {
    const recorded = await this.scheduler.schedule(tx.manager, job.kind, job.subjectId, job.dueAt);
    let batch = this.scheduled.get(tx);
    if (!batch) {
      const jobs: ScheduledJob[] = [];
      this.scheduled.set(tx, jobs);
      tx.afterCommit(() => this.scheduler.enqueue(jobs));
      batch = jobs;
    }
    batch.push(recorded);
  }
}
