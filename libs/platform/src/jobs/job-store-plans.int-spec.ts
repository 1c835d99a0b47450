import { DataSource } from 'typeorm';
import { createTestDatabase, planningExecutor, TestDatabase } from '@paygrid/testing';
import { createDataSource } from '../database/data-source';
import { DurableJobsTable1700000000100 } from './durable-jobs.migration';
import { JobStore } from './job-store';

/**
 * The job store's key lookups on a real Postgres whose statistics were taken while nothing was pending (a quiet
 * hour; a machine without autovacuum), with a backlog of pending jobs since: the planner then believes the
 * partial index `durable_jobs_pending` empty. Every statement that names its jobs must still probe the primary
 * key, not scan that index (a scan reads the whole backlog for each job claimed or finished).
 */
let database: TestDatabase;
let data: DataSource;
const store = new JobStore();
const BACKLOG = 2_000;

beforeAll(async () => {
  database = await createTestDatabase('job_store_plans');
  // The apps' data source (its client, its prepared statements), so the plans are the ones they get.
  data = createDataSource({
    url: database.url,
    app: 'job-store-plans',
    migrations: [DurableJobsTable1700000000100],
  });
  await data.initialize();
  await data.runMigrations();
  await data.query(
    `INSERT INTO durable_jobs (job_id, kind, subject_id, due_at, status, attempts, completed_at)
     SELECT 'done_' || n, 'settle', 'done_' || n, now(), 'done', 1, now() FROM generate_series(1, $1) AS n`,
    [BACKLOG],
  );
  await data.query('ANALYZE durable_jobs');
  await data.query(
    `INSERT INTO durable_jobs (job_id, kind, subject_id, due_at)
     SELECT 'pending_' || n, 'settle', 'pending_' || n, now() + interval '5 seconds' FROM generate_series(1, $1) AS n`,
    [BACKLOG],
  );
}, 60_000);

afterAll(async () => {
  await data?.destroy();
  await database?.drop();
});

describe('the job store under statistics that say nothing is pending', () => {
  it('plans every key lookup on the primary key, not on the pending-jobs index', async () => {
    const { executor, plans } = planningExecutor(data);
    await store.claimAll(
      executor,
      [
        { id: 'pending_7', attempt: 1 },
        { id: 'pending_8', attempt: 1 },
      ],
      60_000,
    );
    await store.claim(executor, 'pending_9', 1, 60_000);
    await store.renew(executor, 'pending_9', 1, 60_000);
    await store.complete(executor, 'pending_9', 1);
    await store.fail(executor, 'pending_10', 1, 'boom');
    await store.retryLater(executor, 'pending_11', 1, 'boom', 1_000);

    expect(plans).toHaveLength(6);
    for (const plan of plans) {
      expect(plan).toContain('durable_jobs_pkey');
      expect(plan).not.toContain('durable_jobs_pending');
    }
  });

  it('still claims only pending runs and finishes only the claimed one', async () => {
    const [claimed, doneJob] = await store.claimAll(
      data,
      [
        { id: 'pending_20', attempt: 1 },
        { id: 'done_20', attempt: 2 },
      ],
      60_000,
    );
    expect(claimed).toEqual({ kind: 'settle', subjectId: 'pending_20' });
    expect(doneJob).toBeUndefined();

    expect(await store.complete(data, 'pending_20', 1)).toBe(true);
    expect(await store.complete(data, 'pending_20', 1)).toBe(false);
    expect(await store.claim(data, 'pending_20', 2, 60_000)).toBeUndefined();
  });

  it('leaves the due-runs read on the pending-jobs index', async () => {
    const { executor, plans } = planningExecutor(data);
    await store.dueRuns(executor, { limit: 10 });
    expect(plans[0]).toContain('durable_jobs_pending');
  });
});
