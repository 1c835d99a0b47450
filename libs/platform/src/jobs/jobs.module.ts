import {
  BeforeApplicationShutdown,
  DynamicModule,
  Inject,
  Injectable,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Type,
} from '@nestjs/common';
import { DiscoveryModule, ModuleRef } from '@nestjs/core';
import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { DataSource } from 'typeorm';
import Redis from 'ioredis';
import { DurableJobs } from './durable-jobs';
import { JobMetrics } from './job-metrics';
import { JobQueue } from './job-queue';
import { JobReconciler } from './job-reconciler';
import { JobRegistry } from './job-registry';
import { JobRunner } from './job-runner';
import { JobStore } from './job-store';
import { settledOrAfter } from '../bootstrap/settled-or-after';
import { closeRedis } from '../nest/close-redis';
import { hushClosingConnections, JobWorker, runTraced, workerClassFor } from './job-worker';
import { LocalJobTimers } from './local-job-timers';

const JOBS_WORKER_TYPE = Symbol('JOBS_WORKER_TYPE');
import { JOBS_CONNECTION, JOBS_OPTIONS, JOBS_QUEUE } from './jobs.tokens';
import { JOBS_DEFAULTS, JobsOptions, ResolvedJobsOptions } from './job.types';

/**
 * Durable jobs for one app (docs/platform.md, "Durable jobs"), imported by
 * `PlatformModule.forRoot({ jobs })`: one BullMQ queue through @nestjs/bullmq, its worker and the
 * reconciler, on one shared Redis connection (the worker adds its blocking duplicate), whatever the
 * number of job kinds. At boot, after every provider exists: the handlers are discovered, the boot
 * fails if a pending job's kind has none, then the worker, the local timers and the reconciler start. At
 * shutdown the reconciler stops, the local timers drop what has not started, and the worker and the
 * timers finish their runs while the database is still open.
 */
const REFUSED_BOOT_CONNECT_WAIT_MS = 5000;

@Injectable()
class JobsLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private worker?: JobWorker;

  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: JobRegistry,
    private readonly store: JobStore,
    private readonly reconciler: JobReconciler,
    private readonly queue: JobQueue,
    private readonly localTimers: LocalJobTimers,
    private readonly runner: JobRunner,
    private readonly moduleRef: ModuleRef,
    @Inject(JOBS_WORKER_TYPE) private readonly workerType: Type<JobWorker>,
    @Inject(JOBS_CONNECTION) private readonly connection: Redis,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const worker = this.moduleRef.get(this.workerType);
    try {
      this.registry.discover();
      const unhandled = (await this.store.pendingKinds(this.dataSource)).filter(
        (kind) => !this.registry.handlerOf(kind) || this.registry.recordOf(kind),
      );
      if (unhandled.length > 0)
        throw new Error(`pending durable jobs of kind(s) ${unhandled.join(', ')} have no @HandleJob handler`);
    } catch (error) {
      // Nest runs no shutdown hook after a failed boot: what this module opened is closed here, once its
      // connections have finished connecting (one closed mid-connect makes BullMQ emit an error after the
      // worker let go of it). A Redis that never answers does not hold the refusal up for long.
      await settledOrAfter(REFUSED_BOOT_CONNECT_WAIT_MS, [worker.untilConnected(), this.queue.queue.waitUntilReady()]);
      await worker.stop();
      await this.closeQueue();
      throw error;
    }
    this.worker = worker;
    this.worker.start();
    this.localTimers.start((kind, data) => runTraced(this.runner, kind, data));
    this.reconciler.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.reconciler.stop();
    await this.localTimers.stop();
    await this.worker?.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.closeQueue();
  }

  private async closeQueue(): Promise<void> {
    // Closing emits "Connection is closed" on the queue as its connection goes; it is expected here.
    if (this.queue.queue.listenerCount('error') === 0) this.queue.queue.on('error', () => undefined);
    hushClosingConnections(this.queue.queue);
    await this.queue.queue.close();
    await closeRedis(this.connection);
  }
}

@Module({})
export class JobsModule {
  static forRoot(options: JobsOptions, redisUrl: string, app: string): DynamicModule {
    const resolved: ResolvedJobsOptions = { ...JOBS_DEFAULTS, ...options };
    const connection = JobsConnectionModule.forRoot(redisUrl, app);
    const worker = workerClassFor(resolved);
    return {
      module: JobsModule,
      imports: [
        DiscoveryModule,
        connection,
        BullModule.registerQueueAsync({
          name: resolved.queue,
          imports: [connection],
          inject: [JOBS_CONNECTION],
          useFactory: (shared: Redis) => ({ connection: shared, prefix: resolved.prefix }),
        }),
      ],
      providers: [
        { provide: JOBS_OPTIONS, useValue: resolved },
        { provide: JOBS_QUEUE, useExisting: getQueueToken(resolved.queue) },
        worker,
        // The class itself, not an alias provider: @nestjs/bullmq would take an alias for a second worker.
        { provide: JOBS_WORKER_TYPE, useValue: worker },
        JobStore,
        JobRegistry,
        LocalJobTimers,
        JobQueue,
        JobMetrics,
        JobRunner,
        JobReconciler,
        DurableJobs,
        JobsLifecycle,
      ],
      exports: [DurableJobs, JobReconciler],
    };
  }
}

@Module({})
class JobsConnectionModule {
  static forRoot(redisUrl: string, app: string): DynamicModule {
    // BullMQ's workers need maxRetriesPerRequest: null (commands wait for a reconnect instead of failing).
    const provider = {
      provide: JOBS_CONNECTION,
      useFactory: () => new Redis(redisUrl, { maxRetriesPerRequest: null, connectionName: `${app}-jobs` }),
    };
    return { module: JobsConnectionModule, providers: [provider], exports: [provider] };
  }
}
