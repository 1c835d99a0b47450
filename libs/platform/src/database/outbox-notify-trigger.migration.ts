import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The relay's wake-up moves into Postgres: a statement trigger on outbox inserts calls pg_notify, instead
 * of the writer sending `SELECT pg_notify` after every row (a round trip per event). Postgres delivers a
 * transaction's identical notifications once, at commit, so a command appending four events wakes the
 * relay once and costs no round trip for it; a rolled-back transaction still notifies nobody. The channel
 * is OUTBOX_CHANNEL (outbox-writer.ts).
 */
export class OutboxNotifyTrigger1700000000020 implements MigrationInterface {
  name = 'OutboxNotifyTrigger1700000000020';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE OR REPLACE FUNCTION paygrid_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('paygrid_outbox', '');
        RETURN NULL;
      END $$`);
    await runner.query('DROP TRIGGER IF EXISTS outbox_notify ON outbox');
    await runner.query(`
      CREATE TRIGGER outbox_notify AFTER INSERT ON outbox
      FOR EACH STATEMENT EXECUTE FUNCTION paygrid_outbox_notify()`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TRIGGER IF EXISTS outbox_notify ON outbox');
    await runner.query('DROP FUNCTION IF EXISTS paygrid_outbox_notify()');
  }
}
