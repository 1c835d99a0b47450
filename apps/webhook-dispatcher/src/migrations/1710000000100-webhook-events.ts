import { MigrationInterface, QueryRunner } from 'typeorm';

/** Every domain event the dispatcher received, stored once (the source of truth for deliveries). */
export class WebhookEvents1710000000100 implements MigrationInterface {
  name = 'WebhookEvents1710000000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE webhook_events (
        event_id           text        PRIMARY KEY,
        event_name         text        NOT NULL,
        event_type         text        NOT NULL,
        source_id          text        NOT NULL,
        account_id         text        NOT NULL,
        master_account_id  text        NOT NULL,
        topic              text        NOT NULL,
        envelope           jsonb       NOT NULL,
        created_at         timestamptz NOT NULL,
        received_at        timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query('CREATE INDEX webhook_events_account ON webhook_events (account_id, received_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE webhook_events');
  }
}
