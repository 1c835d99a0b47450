import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency records (decisions §3). The key is unique platform-wide so that a key reused by another
 * account is recognised and refused rather than silently scoped apart.
 *
 * No longer written: the records moved to Redis (idempotency.store.ts). The table is left for the
 * release after, which drops it once no gateway that writes it can still be running.
 */
export class IdempotencyRecords1710000000000 implements MigrationInterface {
  name = 'IdempotencyRecords1710000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE idempotency_records (
        idempotency_key  text        PRIMARY KEY,
        account_id       text        NOT NULL,
        method           text        NOT NULL,
        path             text        NOT NULL,
        request_hash     text        NOT NULL,
        command_id       text        NOT NULL,
        state            text        NOT NULL CHECK (state IN ('processing', 'completed')),
        locked_until     timestamptz,
        response_status  integer,
        response_body    text,
        created_at       timestamptz NOT NULL DEFAULT now(),
        completed_at     timestamptz
      )`);
    await runner.query('CREATE INDEX idempotency_records_created_at ON idempotency_records (created_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE idempotency_records');
  }
}
