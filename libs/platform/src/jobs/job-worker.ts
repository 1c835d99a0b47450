import type { EventEmitter } from 'node:events';
import { Inject, Injectable, Type } from '@nestjs/common';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { Logger } from 'pino';
import { LOGGER } from '../nest/tokens';
import { traceJob } from '../tracing/job-spans';
import { RunOutcome } from './job-metrics';
import { JobRunner } from './job-runner';
import { ResolvedJobsOptions, RunData } from './job.types';

/**
 * The app's BullMQ worker, created by @nestjs/bullmq from the `@Processor` metadata. It is created
 * stopped (`autorun: false`) and started by the jobs lifecycle once the handlers have been checked, so
 * nothing runs in an app that is about to refuse to boot. Its lock and stalled-job check use
 * `stalledIntervalMs`, so the runs of a worker that died (kill -9, a lost node) are picked up that
 * soon; a job that stalls twice is failed and removed, and the reconciler enqueues its run again.
 */
@Injectable()
export class JobWorker extends WorkerHost {
  constructor(
    private readonly runner: JobRunner,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super();
  }

  process(job: Job<RunData>): Promise<RunOutcome> {
    return runTraced(this.runner, job.name, job.data);
  }

  start(): void {
    this.worker.on('error', (error) => this.logger.warn({ err: error }, 'job worker error'));
    this.worker.on('failed', (job, error) =>
      this.logger.error(
        { err: error, job_id: job?.id },
        'job run failed in BullMQ; the reconciler enqueues it again',
      ),
    );
    this.worker.run().catch((error: unknown) => this.logger.error({ err: error }, 'job worker stopped'));
  }

  /** Resolves once both of the worker's Redis connections are up (its blocking one included). */
  untilConnected(): Promise<unknown> {
    return this.worker.waitUntilReady();
  }

  stop(): Promise<void> {
    // A worker that never started (a refused boot) has no error listener yet, and closing its
    // connections may still emit "Connection is closed": unheard, that event would crash the process.
    if (this.worker.listenerCount('error') === 0) this.worker.on('error', () => undefined);
    hushClosingConnections(this.worker);
    return this.worker.close();
  }
}

/**
 * One run, as the worker and the local timers (local-job-timers.ts) both start it: it continues the trace
 * that enqueued it (or starts one), in a `job <kind>` consumer span.
 */
export function runTraced(runner: JobRunner, kind: string, data: RunData): Promise<RunOutcome> {
  const attributes = { 'paygrid.job.kind': kind, 'paygrid.job.attempt': data.attempt };
  return traceJob(`job ${kind}`, data.trace_context, attributes, () => runner.run(kind, data));
}

/** The worker of one app's queue: `@Processor` options are class metadata, hence a class per queue. */
export function workerClassFor(options: ResolvedJobsOptions): Type<JobWorker> {
  class QueueWorker extends JobWorker {}
  Processor(
    { name: options.queue },
    {
      autorun: false,
      concurrency: options.concurrency,
      lockDuration: options.stalledIntervalMs,
      stalledInterval: options.stalledIntervalMs,
      maxStalledCount: 1,
    },
  )(QueueWorker);
  return QueueWorker;
}

/**
 * Closing a BullMQ queue or worker whose connections are still connecting (a refused boot closes them at
 * once) makes a connection's init reject with "Connection is closed", which BullMQ re-emits as 'error' on its
 * own connection object after the queue or worker has detached from it: an 'error' with no listener, which
 * Node throws as an unhandled error. That closing error is expected, so it is heard and dropped.
 */
export function hushClosingConnections(owner: object): void {
  const internals = owner as { connection?: EventEmitter; blockingConnection?: EventEmitter };
  for (const connection of [internals.connection, internals.blockingConnection]) connection?.on('error', () => undefined);
}
