import { Executor } from '../database/data-source';
import { TransactionContext } from '../database/transaction-context';

/**
 * The vocabulary of durable jobs (docs/platform.md, "Durable jobs"). A job is a Postgres record that
 * says some work is due; each attempt at it is one *run*, handed to BullMQ as a job whose id is
 * `${id}-${attempt}`, so enqueueing the same run twice (after commit, by the reconciler, by a replica)
 * adds one BullMQ job, and a stale or duplicated BullMQ job names a run the record has moved past.
 */

/** How `PlatformModule.forRoot({ jobs })` configures an app's one queue. */
export interface JobsOptions {
  /** BullMQ queue name. Stored in Redis: never rename a deployed one. */
  queue: string;
  /** Redis key prefix of the queue (default `paygrid`); tests use their own. */
  prefix?: string;
  /** Runs one process works on at once (default 8). */
  concurrency?: number;
  /** How often the reconciler compares Postgres with Redis (default 1000 ms). */
  reconcileIntervalMs?: number;
  /** BullMQ's lock and stalled-job check: how soon a dead worker's runs are picked up (default 30 s). */
  stalledIntervalMs?: number;
  /** How long a claimed run of a `durable_jobs` job is its worker's alone; renewed while it runs (default 60 s). */
  leaseMs?: number;
  /** Runs before a `durable_jobs` job that keeps failing is marked `failed` (default 10). */
  maxAttempts?: number;
  /** Delay before the first retry; doubles per retry up to `maxBackoffMs` (defaults 500 ms, 60 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /**
   * A run due within this long is timed by the process that enqueues it, not by BullMQ (local-job-timers.ts;
   * default 10 s; 0: every run goes through BullMQ).
   */
  localHorizonMs?: number;
  /**
   * With local timers on: how long after its due time a run no lease holds is the reconciler's to hand to
   * BullMQ (default 5 s). A timer starts its run at the due time; this covers a busy event loop.
   */
  localGraceMs?: number;
}

export type ResolvedJobsOptions = Required<JobsOptions>;

export const JOBS_DEFAULTS: Omit<ResolvedJobsOptions, 'queue'> = {
  prefix: 'paygrid',
  concurrency: 8,
  reconcileIntervalMs: 1000,
  stalledIntervalMs: 30_000,
  leaseMs: 60_000,
  maxAttempts: 10,
  backoffMs: 500,
  maxBackoffMs: 60_000,
  localHorizonMs: 10_000,
  localGraceMs: 5_000,
};

/** What a caller records: one job per (kind, subject); scheduling it again keeps the first. */
export interface NewJob {
  kind: string;
  subjectId: string;
  dueAt: Date;
}

/** One run of a job: what a BullMQ job stands for. */
export interface JobRun {
  kind: string;
  /** The record's id: a `durable_jobs.job_id`, or the row of a kind with its own record (a delivery id). */
  id: string;
  /** 1 for the first run; every retry is the next number. */
  attempt: number;
  dueAt: Date;
  /** The trace the run continues; by default the one current where it is enqueued. */
  traceContext?: Record<string, string>;
}

/** What a handler learns besides the subject: which run this is. */
export type JobRunInfo = Pick<JobRun, 'kind' | 'id' | 'attempt'> & {
  /**
   * Records this run done inside the handler's own transaction, as its last write, so the runner spends
   * no commit of its own on it (a durable_jobs kind only). The write, with the events appended so far, is
   * sent without waiting (TransactionContext.sendReading): it rides with the transaction's next awaited
   * statement or its COMMIT, no round trip of its own. Call it only where nothing after that transaction
   * can fail the run: once it commits, the run is done and a later throw retries nothing.
   */
  completeIn?: (tx: TransactionContext) => Promise<void>;
};

export type JobHandler = (subjectId: string, run: JobRunInfo) => Promise<unknown>;

/**
 * A kind whose record is the app's own table (webhook deliveries keep status, attempt count, next
 * attempt time and a lease on their own rows). The module then only hands its runs to BullMQ and
 * asks it, on every reconciler pass, which runs are due; its handler claims and records the run
 * itself, conditionally on the attempt number.
 */
export interface JobRecord {
  /** Runs that are due now and that no worker holds, oldest first, after `after` (keyset paging). */
  dueRuns(executor: Executor, page: { limit: number; after?: JobRun }): Promise<JobRun[]>;
  /** Told which of its runs the reconciler found missing from Redis and enqueued again. */
  reenqueued?(runs: JobRun[]): void;
  /**
   * Called by the elected reconciler, in its pass's transaction, before `dueRuns`: work the record holds
   * back on purpose (deliveries waiting for a failing endpoint) that nothing else would ever make due gets
   * its due time here, so the same pass enqueues it. Returns how many runs it made due.
   */
  releaseHeld?(executor: Executor): Promise<number>;
}

/** The BullMQ job of a run. `-` keeps ids free of `:`, which BullMQ refuses. */
export function bullJobIdOf(run: Pick<JobRun, 'id' | 'attempt'>): string {
  return `${run.id}-${run.attempt}`;
}

/** The data of a run's BullMQ job; anything else in the queue (an older format) is dropped. */
export interface RunData {
  id: string;
  attempt: number;
  /** W3C trace headers of the code that enqueued the run (absent for a reconciler's re-enqueue). */
  trace_context?: Record<string, string>;
}

export function runDataOf(data: unknown): RunData | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { id, attempt } = data as Record<string, unknown>;
  if (typeof id !== 'string' || id === '' || !Number.isInteger(attempt) || (attempt as number) < 1)
    return undefined;
  return { id, attempt: attempt as number };
}

/** Exponential backoff after failed run `attempt` (1-based), capped. */
export function backoffDelayMs(
  attempt: number,
  options: Pick<ResolvedJobsOptions, 'backoffMs' | 'maxBackoffMs'>,
): number {
  return Math.min(options.maxBackoffMs, options.backoffMs * 2 ** Math.max(0, attempt - 1));
}
