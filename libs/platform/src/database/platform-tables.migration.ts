import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tables every service has: the transactional outbox (architecture rule 3), the consumer inbox
 * (rule 4) and the processed-commands ledger that makes commands apply at most once (rule 2).
 */
export class PlatformTables1700000000000 implements MigrationInterface {
  name = 'PlatformTables1700000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS outbox (
        id            bigserial PRIMARY KEY,
        event_id      text        NOT NULL UNIQUE,
        topic         text        NOT NULL,
        message_key   text        NOT NULL,
        payload       text        NOT NULL,
        headers       jsonb       NOT NULL DEFAULT '{}'::jsonb,
        created_at    timestamptz NOT NULL DEFAULT now(),
        published_at  timestamptz
      )`);
    await runner.query(`CREATE INDEX IF NOT EXISTS outbox_unpublished ON outbox (id) WHERE published_at IS NULL`);
    await runner.query(`
      CREATE TABLE IF NOT EXISTS inbox (
        consumer      text        NOT NULL,
        event_id      text        NOT NULL,
        processed_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      )`);
    await runner.query(`
      CREATE TABLE IF NOT EXISTS processed_commands (
        command_id    text        PRIMARY KEY,
        command_type  text        NOT NULL,
        reply         jsonb       NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS processed_commands');
    await runner.query('DROP TABLE IF EXISTS inbox');
    await runner.query('DROP TABLE IF EXISTS outbox');
  }
}
