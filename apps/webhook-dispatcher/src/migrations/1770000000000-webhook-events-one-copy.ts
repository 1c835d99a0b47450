import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each event was stored twice: as `envelope` (jsonb, the event as received) and as `body` (text, the
 * delivery body serialised once). The body holds every field of the envelope but `master_account_id` and
 * the topic, which have their own columns, so the envelope was a second copy that every intake paid for
 * (serialised, escaped into a jsonb[] parameter, parsed by Postgres, written to the heap and the WAL) and
 * that only a latency metric read (`create_time`, which `created_at` holds). One copy now: the body.
 *
 * Events stored before bodies existed (migration 1740000000000 added the column without a backfill; none
 * of them has a delivery) get their body from the envelope first, so no event loses its content; their
 * keys come in jsonb's order rather than the delivery order of webhook-body.ts, which matters to no one
 * since they are never sent.
 */
export class WebhookEventsOneCopy1770000000000 implements MigrationInterface {
  name = 'WebhookEventsOneCopy1770000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `UPDATE webhook_events SET body = (envelope - 'master_account_id')::text WHERE body IS NULL`,
    );
    await runner.query('ALTER TABLE webhook_events ALTER COLUMN body SET NOT NULL');
    await runner.query('ALTER TABLE webhook_events DROP COLUMN envelope');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE webhook_events ADD COLUMN envelope jsonb');
    await runner.query(
      `UPDATE webhook_events
          SET envelope = body::jsonb || jsonb_build_object('master_account_id', master_account_id)`,
    );
    await runner.query('ALTER TABLE webhook_events ALTER COLUMN envelope SET NOT NULL');
    await runner.query('ALTER TABLE webhook_events ALTER COLUMN body DROP NOT NULL');
  }
}
