import { createDataSource, DurableJobsTable1700000000100 } from '@paygrid/platform';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { Acquiring1740000000000 } from './1740000000000-acquiring';
import { AcquiringDurableJobs1750000000000 } from './1750000000000-durable-jobs';

/** An acquiring database from before durable jobs keeps its delayed work across the upgrade. */
describe('moving scheduled_jobs to durable_jobs', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('acq_jobs_migration');
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('keeps every job, pending or done, with its due time, attempts and error', async () => {
    const before = createDataSource({
      url: database.url,
      app: 'acquiring',
      migrations: [Acquiring1740000000000],
    });
    await before.initialize();
    await before.runMigrations();
    await before.query(
      `INSERT INTO scheduled_jobs (job_id, kind, subject_id, due_at, state, attempts, last_error)
       VALUES ('job_pending', 'auto_capture', 'att_1', '2030-01-01T00:00:00Z', 'pending', 2, 'processor timeout'),
              ('job_done', 'settle_capture', 'att_2', '2025-01-01T00:00:00Z', 'done', 0, NULL)`,
    );
    await before.destroy();

    const after = createDataSource({
      url: database.url,
      app: 'acquiring',
      migrations: [DurableJobsTable1700000000100, Acquiring1740000000000, AcquiringDurableJobs1750000000000],
    });
    await after.initialize();
    try {
      await after.runMigrations();
      const rows = await after.query(
        `SELECT job_id, kind, subject_id, due_at, status, attempts, last_error, completed_at IS NOT NULL AS completed
           FROM durable_jobs ORDER BY job_id`,
      );
      expect(rows).toEqual([
        {
          job_id: 'job_done',
          kind: 'settle_capture',
          subject_id: 'att_2',
          due_at: new Date('2025-01-01T00:00:00Z'),
          status: 'done',
          attempts: 0,
          last_error: null,
          completed: true,
        },
        {
          job_id: 'job_pending',
          kind: 'auto_capture',
          subject_id: 'att_1',
          due_at: new Date('2030-01-01T00:00:00Z'),
          status: 'pending',
          attempts: 2,
          last_error: 'processor timeout',
          completed: false,
        },
      ]);
      const [{ exists }] = await after.query(`SELECT to_regclass('scheduled_jobs') IS NOT NULL AS exists`);
      expect(exists).toBe(false);

      await after.undoLastMigration();
      expect(await after.query(`SELECT job_id, state, attempts FROM scheduled_jobs ORDER BY job_id`)).toEqual(
        [
          { job_id: 'job_done', state: 'done', attempts: 0 },
          { job_id: 'job_pending', state: 'pending', attempts: 2 },
        ],
      );
    } finally {
      await after.destroy();
    }
  });
});
