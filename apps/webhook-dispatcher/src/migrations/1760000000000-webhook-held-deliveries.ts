import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deliveries held behind a failing endpoint are pending rows with no next_attempt_at (endpoint-streak.ts
 * `holdsNewDeliveries`). Releasing them, per endpoint after a success and across endpoints by the
 * reconciler's pass, reads exactly these rows: a partial index keeps that read small however many
 * deliveries the table holds.
 */
export class WebhookHeldDeliveries1760000000000 implements MigrationInterface {
  name = 'WebhookHeldDeliveries1760000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE INDEX webhook_deliveries_held ON webhook_deliveries (endpoint_id, created_at)
        WHERE status = 'pending' AND next_attempt_at IS NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX webhook_deliveries_held');
  }
}
