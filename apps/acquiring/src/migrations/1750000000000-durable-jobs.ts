import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Acquiring's delayed work moves from its own `scheduled_jobs` to the platform's `durable_jobs`
 * (created by the platform's migration before this one runs). Every row keeps its id, kind, subject,
 * due time, attempts and last error; pending rows are enqueued by the reconciler once due, so nothing
 * scheduled before the upgrade is lost. `attempts` counted failed runs and now counts runs started: a
 * pending row's next run is numbered after them either way.
 */
export class AcquiringDurableJobs1750000000000 implements MigrationInterface {
  name = 'AcquiringDurableJobs1750000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      INSERT INTO durable_jobs (job_id, kind, subject_id, due_at, status, attempts, last_error, created_at, updated_at, completed_at)
      SELECT job_id, kind, subject_id, due_at, state, attempts, last_error, created_at, updated_at,
             CASE WHEN state = 'done' THEN updated_at END
        FROM scheduled_jobs
      ON CONFLICT DO NOTHING`);
    await runner.query('DROP TABLE scheduled_jobs');
  }

  /** Back to a `scheduled_jobs` holding every job; a failed one goes back as pending, to be tried again. */
  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE scheduled_jobs AS
      SELECT job_id, kind, subject_id, due_at, CASE WHEN status = 'done' THEN 'done' ELSE 'pending' END AS state,
             attempts, last_error, NULL::timestamptz AS enqueued_at, created_at, updated_at
        FROM durable_jobs`);
    await runner.query('ALTER TABLE scheduled_jobs ADD PRIMARY KEY (job_id), ADD UNIQUE (kind, subject_id)');
    await runner.query(
      `CREATE INDEX scheduled_jobs_pending ON scheduled_jobs (due_at) WHERE state = 'pending'`,
    );
    await runner.query('DELETE FROM durable_jobs');
  }
}
