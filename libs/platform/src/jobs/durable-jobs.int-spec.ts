import { randomBytes } from 'node:crypto';
import { DynamicModule, INestApplicationContext, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import Redis from 'ioredis';
import { EventTopics } from '@paygrid/contracts';
import {
  createTestDatabase,
  TestDatabase,
  testBrokers,
  testRedisUrl,
  waitFor,
  watchPgRoundTrips,
} from '@paygrid/testing';
import { commonConfig } from '../config/common-config';
import { loadConfig } from '../config/config';
import { GENERIC_PLANS, runInTransaction } from '../database/transaction-context';
import { Executor } from '../database/data-source';
import { appendToOutbox } from '../outbox/outbox-writer';
import { TracedPgClient } from '../tracing/pg-tracing';
import { createLogger } from '../logging/logger';
import { Metrics } from '../metrics/metrics';
import { PlatformModule } from '../nest/platform.module';
import { DurableJobs } from './durable-jobs';
import { DurableJobRecord, HandleJob } from './handle-job.decorator';
import { bullJobIdOf, JobRecord, JobRun, JobRunInfo, JobsOptions } from './job.types';
import { JobStore } from './job-store';
import { JobReconciler } from './job-reconciler';
import { LocalJobTimers } from './local-job-timers';

/**
 * Durable jobs against the real Postgres and Redis, with two instances of a test app (two replicas:
 * two workers, two reconcilers) on one database and one queue. Redis is a logical database of this
 * file's own (db 8), so emptying it (FLUSHDB) stands for a Redis that lost its state, touching nothing
 * else. Every handler run is recorded in `job_effects`, across both replicas, so "exactly once" is a
 * count.
 */
const REDIS_DB = 8;
const redisUrl = (() => {
  const url = new URL(testRedisUrl());
  url.pathname = `/${REDIS_DB}`;
  return url.toString();
})();

class JobEffects1700000000200 implements MigrationInterface {
  name = 'JobEffects1700000000200';
  async up(runner: QueryRunner) {
    await runner.query(
      `CREATE TABLE job_effects (kind text NOT NULL, subject_id text NOT NULL, attempt int NOT NULL)`,
    );
  }
  async down(runner: QueryRunner) {
    await runner.query('DROP TABLE job_effects');
  }
}

/** Runs the test holds at a barrier, by subject: the handler waits until the test releases it. */
const barriers = new Map<string, { entered: () => void; release: Promise<void> }>();

/** Holds the run of `subject` at its barrier: `inside` resolves once it waits there, `release` lets it go. */
function holdAt(subject: string): { inside: Promise<void>; release: () => void } {
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  let release!: () => void;
  barriers.set(subject, { entered, release: new Promise<void>((resolve) => (release = resolve)) });
  return { inside, release };
}

@Injectable()
class TestJobs {
  constructor(private readonly dataSource: DataSource) {}

  private record(subjectId: string, run: JobRunInfo) {
    return this.dataSource.query('INSERT INTO job_effects (kind, subject_id, attempt) VALUES ($1, $2, $3)', [
      run.kind,
      subjectId,
      run.attempt,
    ]);
  }

  @HandleJob('test_effect')
  async effect(subjectId: string, run: JobRunInfo): Promise<void> {
    const barrier = barriers.get(subjectId);
    if (barrier) {
      barrier.entered();
      await barrier.release;
    }
    await this.record(subjectId, run);
  }

  /** Fails its first two runs. */
  @HandleJob('test_flaky')
  async flaky(subjectId: string, run: JobRunInfo): Promise<void> {
    await this.record(subjectId, run);
    if (run.attempt < 3) throw new Error(`flaky run ${run.attempt}`);
  }

  /**
   * Records its effect and its completion in one transaction: the first run's transaction rolls back
   * (nothing recorded, retried); the second commits, then throws, which must retry nothing.
   */
  @HandleJob('test_in_transaction')
  async inTransaction(subjectId: string, run: JobRunInfo): Promise<void> {
    await runInTransaction(this.dataSource, logger, async (tx) => {
      await tx.manager.query('INSERT INTO job_effects (kind, subject_id, attempt) VALUES ($1, $2, $3)', [
        run.kind,
        subjectId,
        run.attempt,
      ]);
      await run.completeIn?.(tx);
      if (run.attempt === 1) throw new Error('roll back the first run');
    });
    throw new Error('fails after its transaction committed');
  }

  /** Appends an event and records its run done in its last transaction. */
  @HandleJob('test_with_event')
  async withEvent(subjectId: string, run: JobRunInfo): Promise<void> {
    await runInTransaction(this.dataSource, logger, async (tx) => {
      await appendToOutbox(tx.manager, {
        topic: EventTopics.payouts,
        event_name: 'test.job_done',
        event_type: 'OPERATIONS',
        source_id: subjectId,
        account_id: 'acct',
        master_account_id: 'acct',
        data: { attempt: run.attempt },
      });
      await run.completeIn?.(tx);
    });
  }

  @HandleJob('test_broken')
  async broken(subjectId: string, run: JobRunInfo): Promise<void> {
    await this.record(subjectId, run);
    throw new Error('the processor is down');
  }
}

/** Resolvers of the tests waiting for the next reconciler pass to reach a record's releaseHeld. */
const passWaiters: ((settings: { jit: string; bitmap: string }) => void)[] = [];

/** The planner settings the next pass's statements run under, whichever replica makes it. */
function nextPassSettings(): Promise<{ jit: string; bitmap: string }> {
  return new Promise((resolve) => passWaiters.push(resolve));
}

/** An own record that holds nothing: its releaseHeld reports the settings of the pass it runs in. */
@Injectable()
@DurableJobRecord('test_settings_probe')
class SettingsProbeRecord implements JobRecord {
  async dueRuns(): Promise<JobRun[]> {
    return [];
  }

  async releaseHeld(executor: Executor): Promise<number> {
    if (passWaiters.length === 0) return 0;
    const [row] = (await executor.query(
      `SELECT current_setting('jit') AS jit, current_setting('enable_bitmapscan') AS bitmap`,
    )) as { jit: string; bitmap: string }[];
    for (const resolve of passWaiters.splice(0)) resolve(row);
    return 0;
  }

  @HandleJob('test_settings_probe')
  async run(): Promise<void> {}
}

@Injectable()
class SecondEffectHandler {
  @HandleJob('test_effect')
  async effect(): Promise<void> {}
}

const prefix = `it-jobs-${randomBytes(4).toString('hex')}`;
const jobsOptions: JobsOptions = {
  queue: 'it-durable-jobs',
  prefix,
  reconcileIntervalMs: 200,
  stalledIntervalMs: 2000,
  maxAttempts: 3,
  backoffMs: 50,
  // Every run through BullMQ: these tests are about its path (the local timers have their own below).
  localHorizonMs: 0,
};

@Module({})
class TestJobsModule {
  static register(
    databaseUrl: string,
    handlers: (typeof TestJobs | typeof SecondEffectHandler | typeof SettingsProbeRecord)[] = [
      TestJobs,
      SettingsProbeRecord,
    ],
    jobs: JobsOptions = jobsOptions,
  ): DynamicModule {
    const config = loadConfig(commonConfig('payouts'), {
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: testBrokers().join(','),
      REDIS_URL: redisUrl,
      LOG_LEVEL: 'silent',
    });
    return {
      module: TestJobsModule,
      imports: [
        PlatformModule.forRoot({
          app: 'payouts',
          config,
          database: { migrations: [JobEffects1700000000200], durableJobs: true },
          outbox: false,
          jobs,
        }),
      ],
      providers: handlers,
    };
  }
}

let database: TestDatabase;
let redis: Redis;
let replicaA: INestApplicationContext;
let replicaB: INestApplicationContext;
const logger = createLogger('payouts', 'silent');

/** One replica; a boot that fails leaves no connection open behind it. */
async function start(
  handlers?: (typeof TestJobs | typeof SecondEffectHandler | typeof SettingsProbeRecord)[],
  jobs?: JobsOptions,
): Promise<INestApplicationContext> {
  const app = await Test.createTestingModule({
    imports: [TestJobsModule.register(database.url, handlers, jobs)],
  }).compile();
  app.useLogger(false);
  try {
    return await app.init();
  } catch (error) {
    // Nest runs no shutdown hook after a failed init (the jobs module closed its own connections).
    await app.get(DataSource).destroy();
    throw error;
  }
}

const data = () => replicaA.get(DataSource);

/** Schedules jobs in one committed transaction of replica A. */
async function schedule(jobs: { kind: string; subjectId: string; dueAt: Date }[]): Promise<void> {
  const durable = replicaA.get(DurableJobs);
  await runInTransaction(data(), logger, async (tx) => {
    for (const job of jobs) await durable.schedule(tx, job);
  });
}

async function effectsOf(subjects: string[]): Promise<Map<string, number>> {
  const rows: { subject_id: string; n: number }[] = await data().query(
    'SELECT subject_id, count(*)::int AS n FROM job_effects WHERE subject_id = ANY($1) GROUP BY subject_id',
    [subjects],
  );
  return new Map(rows.map((row) => [row.subject_id, row.n]));
}

async function jobsOf(
  subjects: string[],
): Promise<{ subject_id: string; status: string; attempts: number; last_error: string | null }[]> {
  return data().query(
    'SELECT subject_id, status, attempts, last_error FROM durable_jobs WHERE subject_id = ANY($1)',
    [subjects],
  );
}

const subjectsOf = (tag: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${tag}-${index}`);
const later = () => new Date(Date.now() + 3_600_000);

beforeAll(async () => {
  database = await createTestDatabase('durable_jobs');
  redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  await redis.flushdb();
  replicaA = await start();
  replicaB = await start();
}, 60_000);

afterAll(async () => {
  await replicaA?.close();
  if (replicaB !== replicaA) await replicaB?.close();
  await redis?.flushdb();
  redis?.disconnect();
  await database?.drop();
});

describe('durable jobs', () => {
  it('runs a job once it is due, and records nothing for a transaction that rolled back', async () => {
    const [kept, rolledBack] = subjectsOf('commit', 2);
    await schedule([{ kind: 'test_effect', subjectId: kept, dueAt: new Date() }]);
    await runInTransaction(data(), logger, async (tx) => {
      await replicaA
        .get(DurableJobs)
        .schedule(tx, { kind: 'test_effect', subjectId: rolledBack, dueAt: new Date() });
      throw new Error('roll back');
    }).catch(() => undefined);

    await waitFor(async () => (await jobsOf([kept]))[0]?.status === 'done', {
      what: 'the committed job to run',
    });
    expect(await effectsOf([kept, rolledBack])).toEqual(new Map([[kept, 1]]));
    expect(await jobsOf([rolledBack])).toEqual([]);
  });

  it('runs a (kind, subject) scheduled twice once: the second records nothing and its run finds nothing to claim', async () => {
    const [subject] = subjectsOf('twice', 1);
    const planned = jest.spyOn(JobStore.prototype, 'planned');
    const enqueued = jest.spyOn(DurableJobs.prototype, 'enqueue');
    let runs: JobRun[];
    try {
      await schedule([{ kind: 'test_effect', subjectId: subject, dueAt: new Date() }]);
      await schedule([{ kind: 'test_effect', subjectId: subject, dueAt: new Date() }]);
      // Read before mockRestore, which forgets them. Both runs are in BullMQ once their enqueues are done.
      runs = planned.mock.results.map((result) => (result.value as ReturnType<JobStore['planned']>).run);
      await Promise.all(enqueued.mock.results.map((result) => result.value as Promise<void>));
      expect(enqueued).toHaveBeenCalledTimes(2);
    } finally {
      planned.mockRestore();
      enqueued.mockRestore();
    }
    const [first, second] = runs;
    const queue = replicaA.get(DurableJobs).queue;
    await waitFor(async () => (await jobsOf([subject]))[0]?.status === 'done', {
      what: 'the first run to finish',
    });
    await waitFor(async () => (await queue.getJobState(bullJobIdOf(second))) === 'unknown', {
      what: 'the second run to finish',
    });
    expect((await jobsOf([subject])).length).toBe(1);
    expect(
      (await data().query('SELECT job_id FROM durable_jobs WHERE subject_id = $1', [subject]))[0].job_id,
    ).toBe(first.id);
    expect(await effectsOf([subject])).toEqual(new Map([[subject, 1]]));
  });

  it('loses none of 200 waiting jobs when Redis is emptied, and two replicas run each exactly once', async () => {
    const subjects = subjectsOf('flush', 200);
    await schedule(subjects.map((subjectId) => ({ kind: 'test_effect', subjectId, dueAt: later() })));
    const queue = replicaA.get(DurableJobs).queue;
    await waitFor(async () => (await queue.getDelayedCount()) >= 200, {
      what: 'the 200 delayed jobs in Redis',
    });

    await redis.flushdb();
    expect(await queue.getDelayedCount()).toBe(0);
    // The due time arrives: only the reconcilers, reading Postgres, can bring the jobs back.
    await data().query(`UPDATE durable_jobs SET due_at = now() WHERE subject_id = ANY($1)`, [subjects]);

    await waitFor(async () => (await jobsOf(subjects)).every((job) => job.status === 'done'), {
      timeoutMs: 30_000,
      what: 'every job to run after the flush',
    });
    const effects = await effectsOf(subjects);
    expect(subjects.filter((subject) => effects.get(subject) !== 1)).toEqual([]);
    expect((await jobsOf(subjects)).every((job) => job.attempts === 1)).toBe(true);
  });

  it('runs nothing for a redelivered BullMQ job of a run another worker holds or finished', async () => {
    const [subject] = subjectsOf('stalled', 1);
    const { inside, release } = holdAt(subject);
    await schedule([{ kind: 'test_effect', subjectId: subject, dueAt: new Date() }]);
    await inside;

    // What a stalled job's redelivery is: a second BullMQ job for the run that is being handled.
    const [{ job_id: jobId }] = await data().query('SELECT job_id FROM durable_jobs WHERE subject_id = $1', [
      subject,
    ]);
    const queue = replicaB.get(DurableJobs).queue;
    await queue.add(
      'test_effect',
      { id: jobId, attempt: 1 },
      { jobId: `${jobId}-redelivered`, removeOnComplete: true },
    );
    await waitFor(async () => (await queue.getJobState(`${jobId}-redelivered`)) === 'unknown', {
      what: 'the redelivered job to finish',
    });
    release();
    await waitFor(async () => (await jobsOf([subject]))[0]?.status === 'done', {
      what: 'the held run to finish',
    });

    await queue.add(
      'test_effect',
      { id: jobId, attempt: 1 },
      { jobId: `${jobId}-late`, removeOnComplete: true },
    );
    await waitFor(async () => (await queue.getJobState(`${jobId}-late`)) === 'unknown', {
      what: 'the late duplicate to finish',
    });
    expect(await effectsOf([subject])).toEqual(new Map([[subject, 1]]));
  });

  it('brings back a run whose job Redis kept in no list (a partial loss)', async () => {
    const [subject] = subjectsOf('orphan', 1);
    await schedule([{ kind: 'test_effect', subjectId: subject, dueAt: later() }]);
    const [{ job_id: jobId }] = await data().query('SELECT job_id FROM durable_jobs WHERE subject_id = $1', [
      subject,
    ]);
    const queue = replicaA.get(DurableJobs).queue;
    await waitFor(async () => (await queue.getJobState(`${jobId}-1`)) === 'delayed', {
      what: 'the delayed job',
    });
    // The job's hash survives, the list that made it run does not.
    expect(await redis.zrem(`${prefix}:${jobsOptions.queue}:delayed`, `${jobId}-1`)).toBe(1);
    expect(await queue.getJob(`${jobId}-1`)).toBeDefined();

    await data().query(`UPDATE durable_jobs SET due_at = now() WHERE job_id = $1`, [jobId]);
    await waitFor(async () => (await jobsOf([subject]))[0]?.status === 'done', {
      what: 'the orphaned run to be restored and run',
    });
    expect(await effectsOf([subject])).toEqual(new Map([[subject, 1]]));
  });

  it('retries a throwing handler with backoff, and leaves one that keeps failing failed with its error', async () => {
    const [flaky, broken] = subjectsOf('retry', 2);
    await schedule([
      { kind: 'test_flaky', subjectId: flaky, dueAt: new Date() },
      { kind: 'test_broken', subjectId: broken, dueAt: new Date() },
    ]);
    await waitFor(
      async () => {
        const jobs = await jobsOf([flaky, broken]);
        return jobs.length === 2 && jobs.every((job) => job.status !== 'pending');
      },
      { timeoutMs: 20_000, what: 'both jobs to settle' },
    );
    const jobs = new Map((await jobsOf([flaky, broken])).map((job) => [job.subject_id, job]));
    expect(jobs.get(flaky)).toMatchObject({ status: 'done', attempts: 3, last_error: null });
    expect(jobs.get(broken)).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_error: 'the processor is down',
    });
    expect(await effectsOf([flaky, broken])).toEqual(
      new Map([
        [flaky, 3],
        [broken, 3],
      ]),
    );
    const metrics = await replicaA.get(Metrics).registry.metrics();
    expect(metrics).toMatch(/paygrid_durable_jobs\{status="failed",app="payouts"\} 1/);
  });

  it("completes a run in the handler's own transaction: rolled back with it, and final once committed", async () => {
    const [subject] = subjectsOf('in-transaction', 1);
    await schedule([{ kind: 'test_in_transaction', subjectId: subject, dueAt: new Date() }]);
    await waitFor(async () => (await jobsOf([subject]))[0]?.status === 'done', {
      timeoutMs: 20_000,
      what: 'the run to be done',
    });
    // Attempt 1 rolled back with its completion; attempt 2 committed both, and its later throw retried nothing.
    expect((await jobsOf([subject]))[0]).toMatchObject({ status: 'done', attempts: 2 });
    expect(await effectsOf([subject])).toEqual(new Map([[subject, 1]]));
  });

  it("writes the events of a run's last transaction with its done: one statement for both, sent with COMMIT", async () => {
    const driverQuery = jest.spyOn(TracedPgClient.prototype, 'query');
    const wire = watchPgRoundTrips();
    try {
      const [subject] = subjectsOf('with-event', 1);
      await schedule([{ kind: 'test_with_event', subjectId: subject, dueAt: new Date() }]);
      await waitFor(async () => (await jobsOf([subject]))[0]?.status === 'done', {
        timeoutMs: 20_000,
        what: 'the run to be done',
      });
      const [event] = await data().query(
        `SELECT count(*)::int AS n FROM outbox WHERE payload::jsonb->>'source_id' = $1`,
        [subject],
      );
      expect(event.n).toBe(1);
      const outboxWrites = driverQuery.mock.calls
        .map((call) => String(call[0]))
        .filter((text) => text.includes('INSERT INTO outbox'));
      expect(outboxWrites).toHaveLength(1);
      expect(outboxWrites[0]).toMatch(
        /^WITH appended_events AS \(INSERT INTO outbox[\s\S]*UPDATE durable_jobs SET status = 'done'/,
      );
      // The done is not awaited on its own (JobStore.completeWithin): BEGIN, it and COMMIT (with the relay's
      // wake-up right behind it) are one round trip.
      const last = wire
        .transactions()
        .filter(({ statements }) => statements.some((sql) => sql.startsWith('WITH appended_events')));
      expect(last.map(({ texts, roundTrips }) => ({ texts, roundTrips }))).toEqual([
        {
          texts: ['START TRANSACTION', 'WITH appended_events', 'COMMIT', 'SELECT pg_notify($1,'],
          roundTrips: 1,
        },
      ]);
    } finally {
      wire.restore();
      driverQuery.mockRestore();
    }
  });

  it("plans a reconciler pass's statements without bitmap scans or JIT, for that pass only", async () => {
    const settings = nextPassSettings();
    // Replica A's pass, or B's periodic one if B holds the lock: either runs every record's releaseHeld.
    await replicaA.get(JobReconciler).reconcile();
    expect(await settings).toEqual({ jit: 'off', bitmap: 'off' });
    // LOCAL: the settings end with the pass's transaction. Every connection of replica A's pool at once,
    // so the one its pass ran on (whatever replica's pass the probe saw) is among them.
    const pool = data();
    const runners = Array.from({ length: (pool.options.extra as { max: number }).max }, () =>
      pool.createQueryRunner(),
    );
    try {
      await Promise.all(runners.map((runner) => runner.connect()));
      const after = await Promise.all(
        runners.map(
          async (runner) =>
            (
              await runner.query(
                `SELECT current_setting('jit') AS jit, current_setting('enable_bitmapscan') AS bitmap`,
              )
            )[0],
        ),
      );
      expect(after).toEqual(runners.map(() => ({ jit: 'on', bitmap: 'on' })));
    } finally {
      await Promise.all(runners.map((runner) => runner.release()));
    }
  });

  it('refuses to boot when two handlers claim a kind, or a pending job has no handler', async () => {
    await expect(start([TestJobs, SecondEffectHandler])).rejects.toThrow(
      'two handlers claim job kind test_effect',
    );
    await data().query(
      `INSERT INTO durable_jobs (job_id, kind, subject_id, due_at) VALUES ('job_orphan_kind', 'retired_kind', 'x', $1)`,
      [later()],
    );
    try {
      await expect(start()).rejects.toThrow(
        'pending durable jobs of kind(s) retired_kind have no @HandleJob handler',
      );
    } finally {
      await data().query(`DELETE FROM durable_jobs WHERE job_id = 'job_orphan_kind'`);
    }
  });
});

describe('durable jobs due soon, on local timers', () => {
  // One replica, so that its reconciler is the only one: another replica's would not know its timers
  // (across replicas the grace does that work, and it is set to one second here).
  const localOptions: JobsOptions = {
    ...jobsOptions,
    localHorizonMs: 10_000,
    localGraceMs: 1_000,
    concurrency: 1,
  };
  const queue = () => replicaA.get(DurableJobs).queue;
  const jobIdOf = async (subject: string): Promise<string> =>
    (await data().query('SELECT job_id FROM durable_jobs WHERE subject_id = $1', [subject]))[0].job_id;

  beforeAll(async () => {
    await replicaB.close();
    await replicaA.close();
    replicaA = await start(undefined, localOptions);
    replicaB = replicaA;
  }, 60_000);

  it('runs a job due soon on the timer of the process that committed it, with no BullMQ job', async () => {
    const [subject, beyond] = subjectsOf('local', 2);
    const added = jest.spyOn(queue(), 'addBulk');
    try {
      await schedule([
        { kind: 'test_effect', subjectId: subject, dueAt: new Date(Date.now() + 200) },
        { kind: 'test_effect', subjectId: beyond, dueAt: later() },
      ]);

      await waitFor(async () => (await jobsOf([subject]))[0]?.status === 'done', { what: 'the local run' });
      expect(await effectsOf([subject])).toEqual(new Map([[subject, 1]]));
      // Only the run beyond the horizon went to BullMQ.
      const beyondRun = `${await jobIdOf(beyond)}-1`;
      expect(added.mock.calls.map(([jobs]) => jobs.map((job) => job.opts?.jobId))).toEqual([[beyondRun]]);
      expect(await queue().getJobState(beyondRun)).toBe('delayed');
    } finally {
      added.mockRestore();
    }
  });

  it('keeps a due run its timer holds away from its reconciler, past the grace, and runs it once', async () => {
    const [busy, waiting] = subjectsOf('local-held', 2);
    const { inside, release } = holdAt(busy);
    await schedule([{ kind: 'test_effect', subjectId: busy, dueAt: new Date() }]);
    await inside;
    // The only local slot is taken: this one falls due and waits for it, unclaimed.
    await schedule([{ kind: 'test_effect', subjectId: waiting, dueAt: new Date() }]);
    const jobId = await jobIdOf(waiting);
    await data().query(`UPDATE durable_jobs SET due_at = now() - interval '1 hour' WHERE job_id = $1`, [
      jobId,
    ]);

    try {
      expect(await replicaA.get(JobReconciler).reconcile()).toBe(0);
      expect(await queue().getJobState(`${jobId}-1`)).toBe('unknown');
    } finally {
      release();
    }
    await waitFor(async () => (await jobsOf([busy, waiting])).every((job) => job.status === 'done'), {
      what: 'both runs',
    });
    expect(await effectsOf([busy, waiting])).toEqual(
      new Map([
        [busy, 1],
        [waiting, 1],
      ]),
    );
  });

  it('hands a run whose timer died with its process to BullMQ once the grace has passed', async () => {
    const [subject] = subjectsOf('local-lost', 1);
    await schedule([{ kind: 'test_effect', subjectId: subject, dueAt: new Date(Date.now() + 8_000) }]);
    // What a process that dies does to its timers: they are gone; Postgres still says the run is due.
    await replicaA.get(LocalJobTimers).stop();
    const jobId = await jobIdOf(subject);
    await data().query(`UPDATE durable_jobs SET due_at = now() - interval '1 hour' WHERE job_id = $1`, [
      jobId,
    ]);

    await waitFor(async () => (await jobsOf([subject]))[0]?.status === 'done', {
      what: 'the reconciler to hand the run to BullMQ and its worker to run it',
    });
    expect(await effectsOf([subject])).toEqual(new Map([[subject, 1]]));
  });
});

describe('claims of runs starting together', () => {
  const store = new JobStore();

  beforeAll(async () => {
    await replicaA.close();
    replicaA = await start(undefined, { ...jobsOptions, localHorizonMs: 10_000, concurrency: 8 });
    replicaB = replicaA;
  }, 60_000);

  it('claims each run once in one statement: a run named twice, or a stale attempt, gets nothing', async () => {
    const [first, second] = subjectsOf('claim-all', 2);
    await schedule([
      { kind: 'test_effect', subjectId: first, dueAt: later() },
      { kind: 'test_effect', subjectId: second, dueAt: later() },
    ]);
    const [firstId, secondId] = await Promise.all(
      [first, second].map(
        async (subject) =>
          (await data().query('SELECT job_id FROM durable_jobs WHERE subject_id = $1', [subject]))[0]
            .job_id as string,
      ),
    );

    const claimed = await store.claimAll(
      data(),
      [
        { id: firstId, attempt: 1 },
        { id: firstId, attempt: 1 },
        { id: secondId, attempt: 2 },
      ],
      60_000,
    );

    expect(claimed).toEqual([{ kind: 'test_effect', subjectId: first }, undefined, undefined]);
    expect((await jobsOf([first, second])).map((job) => [job.subject_id, job.attempts]).sort()).toEqual([
      [first, 1],
      [second, 0],
    ]);
  });

  it('claims the runs of one local timer slot with one statement, under generic plans, in one round trip', async () => {
    const subjects = subjectsOf('slot', 4);
    const claimAll = jest.spyOn(JobStore.prototype, 'claimAllStatement');
    const wire = watchPgRoundTrips();
    try {
      const dueAt = new Date(Date.now() + 300);
      await schedule(subjects.map((subjectId) => ({ kind: 'test_effect', subjectId, dueAt })));
      await waitFor(async () => (await jobsOf(subjects)).every((job) => job.status === 'done'), {
        what: 'the four runs',
      });
      expect(claimAll.mock.calls.map(([runs]) => runs.length)).toEqual([4]);
      const claim = wire
        .transactions()
        .find(({ statements }) => statements.some((sql) => sql.includes('UPDATE durable_jobs d')));
      expect(claim?.statements[0]).toBe(`START TRANSACTION; ${GENERIC_PLANS}`);
      expect(claim?.texts.slice(1)).toEqual(['UPDATE durable_jobs', 'COMMIT']);
      expect(claim?.roundTrips).toBe(1);
    } finally {
      wire.restore();
      claimAll.mockRestore();
    }
    expect(await effectsOf(subjects)).toEqual(new Map(subjects.map((subject) => [subject, 1])));
  });
});
