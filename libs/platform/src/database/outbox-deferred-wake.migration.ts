import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox's notify trigger (outbox-notify-trigger.migration.ts) says `deferred` instead of nothing in a
 * transaction that set `paygrid.outbox_wake` to `deferred` (set_config, transaction-local: outbox-writer.ts's
 * deferred flush). The relay answers a `deferred` notification a short delay later, or at once with the
 * next plain one (outbox-relay.ts). A staged command's first transaction defers its wake-up that way: its
 * final commit, a few milliseconds later, wakes the relay for both, which then publishes the command's
 * events as one batch after the reply's commit instead of waking in the middle of the command (where its
 * events' consumers compete for the CPU with the command's own second transaction).
 */
/** The trigger function as this migration leaves it (a later one's `down` restores it). */
export const DEFERRED_WAKE_NOTIFY_FUNCTION = `
      CREATE OR REPLACE FUNCTION paygrid_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF current_setting('paygrid.outbox_wake', true) = 'deferred' THEN
          PERFORM pg_notify('paygrid_outbox', 'deferred');
        ELSE
          PERFORM pg_notify('paygrid_outbox', '');
        END IF;
        RETURN NULL;
      END $$`;

export class OutboxDeferredWake1700000000030 implements MigrationInterface {
  name = 'OutboxDeferredWake1700000000030';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(DEFERRED_WAKE_NOTIFY_FUNCTION);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE OR REPLACE FUNCTION paygrid_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('paygrid_outbox', '');
        RETURN NULL;
      END $$`);
  }
}
