import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Endpoints, their signing secrets, one delivery per (event, endpoint) and the append-only attempt log.
 *
 * Postgres is the source of truth of what must still be sent (`webhook_deliveries.status` and
 * `next_attempt_at`); Redis only schedules. `lease_until` marks a delivery a worker is sending right now,
 * so the reconciler does not re-enqueue it. Statuses are text + CHECK (see *.states.ts for transitions).
 * `webhook_events.body` holds the delivery body serialised once, so every retry sends identical bytes.
 */
export class WebhookDeliveries1740000000000 implements MigrationInterface {
  name = 'WebhookDeliveries1740000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE webhook_events ADD COLUMN body text');

    await runner.query(`
      CREATE TABLE webhook_endpoints (
        endpoint_id           text        PRIMARY KEY,
        account_id            text        NOT NULL,
        master_account_id     text        NOT NULL,
        url                   text        NOT NULL,
        description           text,
        event_names           text[]      NOT NULL DEFAULT '{}',
        include_sub_accounts  boolean     NOT NULL DEFAULT false,
        status                text        NOT NULL CHECK (status IN ('ENABLED', 'DISABLED', 'DELETED')),
        disabled_reason       text,
        disabled_at           timestamptz,
        failing_since         timestamptz,
        created_at            timestamptz NOT NULL DEFAULT now(),
        updated_at            timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(
      'CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, created_at)',
    );

    await runner.query(`
      CREATE TABLE webhook_endpoint_secrets (
        secret_id    bigserial   PRIMARY KEY,
        endpoint_id  text        NOT NULL REFERENCES webhook_endpoints (endpoint_id),
        secret       text        NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now(),
        expires_at   timestamptz
      )`);
    await runner.query(
      'CREATE INDEX webhook_endpoint_secrets_endpoint ON webhook_endpoint_secrets (endpoint_id)',
    );

    await runner.query(`
      CREATE TABLE webhook_deliveries (
        delivery_id       text        PRIMARY KEY,
        event_id          text        NOT NULL REFERENCES webhook_events (event_id),
        endpoint_id       text        NOT NULL REFERENCES webhook_endpoints (endpoint_id),
        account_id        text        NOT NULL,
        event_name        text        NOT NULL,
        status            text        NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
        trigger           text        NOT NULL DEFAULT 'scheduled' CHECK (trigger IN ('scheduled', 'manual')),
        attempt_count     integer     NOT NULL DEFAULT 0,
        next_attempt_at   timestamptz,
        lease_until       timestamptz,
        last_attempt_at   timestamptz,
        last_status_code  integer,
        last_error        text,
        completed_at      timestamptz,
        created_at        timestamptz NOT NULL DEFAULT now(),
        updated_at        timestamptz NOT NULL DEFAULT now(),
        UNIQUE (event_id, endpoint_id)
      )`);
    await runner.query(
      `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
    await runner.query(
      'CREATE INDEX webhook_deliveries_account ON webhook_deliveries (account_id, created_at)',
    );
    await runner.query(
      'CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, status, created_at)',
    );

    await runner.query(`
      CREATE TABLE webhook_attempts (
        attempt_id        bigserial   PRIMARY KEY,
        delivery_id       text        NOT NULL REFERENCES webhook_deliveries (delivery_id),
        attempt_number    integer     NOT NULL,
        endpoint_id       text        NOT NULL,
        event_id          text        NOT NULL,
        trigger           text        NOT NULL CHECK (trigger IN ('scheduled', 'manual')),
        url               text        NOT NULL,
        attempted_at      timestamptz NOT NULL,
        status_code       integer,
        error             text,
        latency_ms        integer     NOT NULL,
        response_excerpt  text        NOT NULL DEFAULT '',
        succeeded         boolean     NOT NULL,
        UNIQUE (delivery_id, attempt_number)
      )`);
    await runner.query('CREATE INDEX webhook_attempts_event ON webhook_attempts (event_id, attempted_at)');
    // The attempt log is evidence for merchants and on-call: rows are only ever appended.
    await runner.query(`
      CREATE FUNCTION webhook_attempts_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'webhook_attempts is append-only';
      END $$`);
    await runner.query(`
      CREATE TRIGGER webhook_attempts_append_only BEFORE UPDATE OR DELETE ON webhook_attempts
      FOR EACH ROW EXECUTE FUNCTION webhook_attempts_append_only()`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE webhook_attempts');
    await runner.query('DROP FUNCTION webhook_attempts_append_only()');
    await runner.query('DROP TABLE webhook_deliveries');
    await runner.query('DROP TABLE webhook_endpoint_secrets');
    await runner.query('DROP TABLE webhook_endpoints');
    await runner.query('ALTER TABLE webhook_events DROP COLUMN body');
  }
}
