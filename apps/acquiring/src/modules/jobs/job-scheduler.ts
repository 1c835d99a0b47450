import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DurableJobs, HandleJob } from '@paygrid/platform';
import { JobHandler, JobKind, ScheduledJob } from './job.types';

/**
 * A thin bridge from acquiring's older call sites to the platform's durable jobs, kept only while those
 * call sites move to the platform API (issue 14): `tx.schedule(...)` (UnitOfWork) to
 * `DurableJobs.schedule(context.tx, ...)`, and `scheduler.register(kind, fn)` to `@HandleJob(kind)` on
 * the method. It schedules through DurableJobs and answers the two kinds still registered by hand;
 * once their services carry `@HandleJob` the boot fails ("two handlers claim job kind ...") until this
 * file is deleted.
 */
const BRIDGED_KINDS: readonly JobKind[] = ['settle_capture', 'process_refund'];

@Injectable()
export class JobScheduler implements OnApplicationBootstrap {
  private readonly handlers = new Map<JobKind, JobHandler>();

  constructor(private readonly jobs: DurableJobs) {}

  /** @deprecated put `@HandleJob(kind)` on the handler method. */
  register(kind: JobKind, handler: JobHandler): void {
    if (!BRIDGED_KINDS.includes(kind)) throw new Error(`job kind ${kind} is handled with @HandleJob`);
    if (this.handlers.has(kind)) throw new Error(`two handlers claim job kind ${kind}`);
    this.handlers.set(kind, handler);
  }

  /** @deprecated `DurableJobs.schedule(tx, job)`. Records the job in `manager`'s transaction; `enqueue` it after commit. */
  async schedule(
    manager: EntityManager,
    kind: JobKind,
    subjectId: string,
    dueAt: Date,
  ): Promise<ScheduledJob> {
    const scheduled: ScheduledJob = { afterCommit: [] };
    await this.jobs.schedule(
      { manager, afterCommit: (hook) => scheduled.afterCommit.push(hook) },
      { kind, subjectId, dueAt },
    );
    return scheduled;
  }

  /** After commit; never throws (a job BullMQ did not get is enqueued by the reconciler). */
  async enqueue(jobs: readonly ScheduledJob[]): Promise<void> {
    for (const job of jobs) for (const hook of job.afterCommit) await hook();
  }

  onApplicationBootstrap(): void {
    const missing = BRIDGED_KINDS.filter((kind) => !this.handlers.has(kind));
    if (missing.length > 0) throw new Error(`no handler for job kind(s) ${missing.join(', ')}`);
  }

  @HandleJob('settle_capture')
  settleCapture(attemptId: string): Promise<void> {
    return this.forward('settle_capture', attemptId);
  }

  @HandleJob('process_refund')
  processRefund(refundId: string): Promise<void> {
    return this.forward('process_refund', refundId);
  }

  private forward(kind: JobKind, subjectId: string): Promise<void> {
    const handler = this.handlers.get(kind);
    if (!handler) throw new Error(`no handler for job kind ${kind}`);
    return handler(subjectId);
  }
}
