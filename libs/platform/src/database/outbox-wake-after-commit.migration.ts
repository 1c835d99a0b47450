import { MigrationInterface, QueryRunner } from 'typeorm';
import { DEFERRED_WAKE_NOTIFY_FUNCTION } from './outbox-deferred-wake.migration';

/**
 * The outbox's notify trigger stays silent in a transaction that set `paygrid.outbox_wake` to
 * `after_commit`: its writer sends the notification itself, as a statement of its own right behind its
 * COMMIT (outbox-writer.ts, `outboxWakeOwed`).
 *
 * Why: a transaction that has called NOTIFY takes one lock per database at its commit (Postgres' async.c
 * serialises the notification queue's writers, "queue entries appear in commit order") and holds it until
 * its commit record is flushed. Every notifying commit of the database then waits for the one before it,
 * WAL flush included: no group commit, and a backend preempted while holding the lock stalls the rest.
 * Sampled under create load, that lock (wait event `Lock: object`) was three quarters of the acquiring
 * backends' waiting (docs/performance.md §23). A notification sent by a statement of its own commits no
 * write, so it takes the lock for a moment and flushes nothing.
 *
 * A transaction that set nothing (an insert outside the platform's buffered paths) notifies from the
 * trigger as before. The `deferred` payload of outbox-deferred-wake.migration.ts is gone: no writer sets it
 * any more (deferred-wakes.ts), and the relay takes any notification as a wake-up.
 */
export class OutboxWakeAfterCommit1700000000050 implements MigrationInterface {
  name = 'OutboxWakeAfterCommit1700000000050';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE OR REPLACE FUNCTION paygrid_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF current_setting('paygrid.outbox_wake', true) IS DISTINCT FROM 'after_commit' THEN
          PERFORM pg_notify('paygrid_outbox', '');
        END IF;
        RETURN NULL;
      END $$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(DEFERRED_WAKE_NOTIFY_FUNCTION);
  }
}
