import { jobTraceContext } from '../tracing/job-spans';
import { Inject, Injectable } from '@nestjs/common';
import { JobState, Queue } from 'bullmq';
import { JOBS_QUEUE } from './jobs.tokens';
import { bullJobIdOf, JobRun, RunData } from './job.types';
import { LocalJobTimers } from './local-job-timers';

/**
 * The BullMQ side of durable jobs: one delayed job per run, under the run's deterministic id, removed
 * once it has run (Postgres keeps the record, and a removed id can be added again when Postgres says
 * the run is still due). BullMQ never retries a job itself: a retry is the record's next run. A run due
 * within the local horizon is timed by this process instead (local-job-timers.ts).
 *
 * `restore` is the reconciler's check. A run counts as held only while its job is in a state that
 * will still run it; a job that exists in none of them (its hash kept while the lists holding it were
 * lost: a partial flush, key eviction, a failover) is removed and added again. Checking mere
 * existence is what let such a job hide a due run from the reconciler for ever (issue 15).
 */
const LIVE_STATES = new Set<JobState | 'unknown'>([
  'waiting',
  'delayed',
  'active',
  'prioritized',
  'waiting-children',
]);

@Injectable()
export class JobQueue {
  constructor(
    @Inject(JOBS_QUEUE) readonly queue: Queue<RunData>,
    private readonly local: LocalJobTimers,
  ) {}

  async add(runs: readonly JobRun[]): Promise<void> {
    if (runs.length === 0) return;
    // The trace that made the runs due (a command's, an event intake's) continues in the worker; a
    // reconciler's re-enqueue has none and the run starts a trace of its own.
    const traceContext = jobTraceContext();
    const forBullMQ = this.local.take(runs, traceContext);
    if (forBullMQ.length === 0) return;
    const now = Date.now();
    await this.queue.addBulk(
      forBullMQ.map((run) => ({
        name: run.kind,
        data: { id: run.id, attempt: run.attempt, trace_context: run.traceContext ?? traceContext },
        opts: {
          jobId: bullJobIdOf(run),
          delay: Math.max(0, run.dueAt.getTime() - now),
          attempts: 1,
          removeOnComplete: true,
          removeOnFail: true,
        },
      })),
    );
  }

  /**
   * Adds again every run whose job Redis no longer holds in a runnable state, and that no timer of this
   * process holds either; returns those runs.
   */
  async restore(runs: readonly JobRun[]): Promise<JobRun[]> {
    const unheld = runs.filter((run) => !this.local.holds(run));
    const states = await Promise.all(unheld.map((run) => this.queue.getJobState(bullJobIdOf(run))));
    const lost = unheld.filter((_, index) => !LIVE_STATES.has(states[index]));
    if (lost.length === 0) return [];
    // A leftover hash would make the add a no-op; a job some worker still locks is kept (remove refuses).
    await Promise.all(lost.map((run) => this.queue.remove(bullJobIdOf(run)).catch(() => 0)));
    await this.add(lost);
    return lost;
  }

  counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed');
  }
}
