import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbox rows name the logical event topic (`acquiring.events`); the relay publishes to that topic of its
 * own stack (KafkaNames). Rows written before stack prefixes existed name the physical topic, which was
 * always `paygrid.<family>.events` whatever the deployment: the unpublished ones get their logical name so
 * the relay can send them. Published rows keep the name of the topic they went to.
 */
export class OutboxLogicalTopics1700000000010 implements MigrationInterface {
  name = 'OutboxLogicalTopics1700000000010';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `UPDATE outbox SET topic = substr(topic, length('paygrid.') + 1)
        WHERE published_at IS NULL AND topic LIKE 'paygrid.%.events'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `UPDATE outbox SET topic = 'paygrid.' || topic WHERE published_at IS NULL AND topic NOT LIKE 'paygrid.%'`,
    );
  }
}
