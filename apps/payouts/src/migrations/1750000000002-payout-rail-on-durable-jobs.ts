import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The bank rail's timer moves from the payout row (`next_step_at`, taken by an interim poller) to the
 * platform's `durable_jobs` (created by the platform's migration before the app's). Every payout in
 * flight at the upgrade gets the job of its next step, due when its step was, so the reconciler
 * enqueues it once due and no payout in flight is lost; then the column, its index and its CHECK go.
 * The job kinds are PAYOUT_STEP_JOBS' (payout-rail.ts), spelled out here because a migration must not
 * change meaning when the code does.
 */
export class PayoutRailOnDurableJobs1750000000002 implements MigrationInterface {
  name = 'PayoutRailOnDurableJobs1750000000002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      INSERT INTO durable_jobs (job_id, kind, subject_id, due_at)
      SELECT 'job_' || payout_id || '_' || step.kind, step.kind, payout_id, next_step_at
        FROM payouts
        JOIN (VALUES ('INITIATED', 'payout_process'), ('PROCESSING', 'payout_settle'), ('FAILED', 'payout_refund'))
             AS step (status, kind) ON step.status = payouts.status
       WHERE next_step_at IS NOT NULL
      ON CONFLICT (kind, subject_id) DO NOTHING`);
    await runner.query('DROP INDEX IF EXISTS payouts_due');
    // Dropping the column drops the CHECK that tied it to the status.
    await runner.query('ALTER TABLE payouts DROP COLUMN next_step_at');
  }

  /** Back to the column: each open payout's pending step job becomes its due time again. */
  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE payouts ADD COLUMN next_step_at timestamptz');
    await runner.query(`
      UPDATE payouts SET next_step_at = coalesce(
        (SELECT min(j.due_at) FROM durable_jobs j
          WHERE j.subject_id = payouts.payout_id AND j.status = 'pending'
            AND j.kind IN ('payout_process', 'payout_settle', 'payout_refund')),
        now())
       WHERE status IN ('INITIATED', 'PROCESSING', 'FAILED')`);
    await runner.query(
      `DELETE FROM durable_jobs WHERE kind IN ('payout_process', 'payout_settle', 'payout_refund')`,
    );
    await runner.query(
      `ALTER TABLE payouts ADD CHECK ((status IN ('COMPLETED', 'FAILED_REFUNDED')) = (next_step_at IS NULL))`,
    );
    await runner.query(`CREATE INDEX payouts_due ON payouts (next_step_at) WHERE next_step_at IS NOT NULL`);
  }
}
