import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An attempt is keyed by its delivery and its number, and has no other index. Every attempt wrote three index
 * entries: the surrogate `attempt_id` (a sequence value, read by nothing but a tie-break), the unique
 * (delivery_id, attempt_number) that already identified it, and (event_id, attempted_at) for one listing. A card
 * create writes ten attempts in the dispatcher's group commit, so that was twenty index entries a create for
 * nothing a reader needs (docs/performance.md §38). The event's attempts are now found through its deliveries
 * (their unique (event_id, endpoint_id)), then each delivery's attempts by this key.
 *
 * Rebuilding the key locks the table while it builds: about 3 s a million attempts on the bench machine.
 */
export class AttemptsKeyedByDelivery1810000000000 implements MigrationInterface {
  name = 'AttemptsKeyedByDelivery1810000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE webhook_attempts
         DROP CONSTRAINT webhook_attempts_pkey,
         DROP CONSTRAINT webhook_attempts_delivery_id_attempt_number_key,
         ADD CONSTRAINT webhook_attempts_pkey PRIMARY KEY (delivery_id, attempt_number),
         DROP COLUMN attempt_id`,
    );
    await runner.query('DROP INDEX webhook_attempts_event');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE INDEX webhook_attempts_event ON webhook_attempts (event_id, attempted_at)');
    await runner.query(
      `ALTER TABLE webhook_attempts
         DROP CONSTRAINT webhook_attempts_pkey,
         ADD CONSTRAINT webhook_attempts_delivery_id_attempt_number_key UNIQUE (delivery_id, attempt_number),
         ADD COLUMN attempt_id bigserial,
         ADD CONSTRAINT webhook_attempts_pkey PRIMARY KEY (attempt_id)`,
    );
  }
}
