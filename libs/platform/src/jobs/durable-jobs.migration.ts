import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The record of durable jobs (architecture rule 9: Postgres, not Redis, is the source of truth), in
 * every app that enables jobs, before the app's own migrations. `kind` is free text: each app's kinds
 * are checked at boot against its handlers, not by a constraint.
 */
export class DurableJobsTable1700000000100 implements MigrationInterface {
  name = 'DurableJobsTable1700000000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS durable_jobs (
        job_id        text        PRIMARY KEY,
        kind          text        NOT NULL,
        subject_id    text        NOT NULL,
        due_at        timestamptz NOT NULL,
        status        text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
        attempts      integer     NOT NULL DEFAULT 0,
        lease_until   timestamptz,
        last_error    text,
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now(),
        completed_at  timestamptz,
        UNIQUE (kind, subject_id)
      )`);
    await runner.query(
      `CREATE INDEX IF NOT EXISTS durable_jobs_pending ON durable_jobs (due_at, job_id) WHERE status = 'pending'`,
    );
    await runner.query(
      `CREATE INDEX IF NOT EXISTS durable_jobs_failed ON durable_jobs (updated_at) WHERE status = 'failed'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS durable_jobs');
  }
}
