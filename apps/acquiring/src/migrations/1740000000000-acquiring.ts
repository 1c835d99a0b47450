import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The acquiring tables. Statuses are text with CHECK constraints (a new status is a constraint change,
 * not an enum migration); money is bigint minor units with its currency beside it. The only card data
 * stored is `saved_cards.pan_ciphertext` (AES-256-GCM); attempts keep the masked card only, and no
 * column ever holds a CVC.
 */
/** Frozen copies of the status and job-kind lists as of this migration: a later change is a new migration. */
const list = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');

const INTENT_STATUSES = [
  'REQUIRES_PAYMENT_METHOD',
  'REQUIRES_CUSTOMER_ACTION',
  'REQUIRES_CAPTURE',
  'PENDING',
  'SUCCEEDED',
  'CANCELLED',
  'FAILED',
];
const ATTEMPT_STATUSES = [
  'INITIATED',
  'AUTHENTICATION_REDIRECTED',
  'PENDING_AUTHORIZATION',
  'AUTHORIZED',
  'CAPTURE_REQUESTED',
  'SETTLED',
  'CANCELLED',
  'EXPIRED',
  'FAILED',
];
const REFUND_STATUSES = ['INITIATED', 'PROCESSING', 'SUCCEEDED', 'FAILED'];
const JOB_KINDS = [
  'complete_async_authorization',
  'expire_authentication',
  'auto_capture',
  'void_authorization',
  'settle_capture',
  'process_refund',
];

export class Acquiring1740000000000 implements MigrationInterface {
  name = 'Acquiring1740000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE account_settings (
        account_id            text        PRIMARY KEY,
        capture_window_hours  integer     NOT NULL CHECK (capture_window_hours BETWEEN 1 AND 24),
        updated_at            timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE customers (
        customer_id           text        PRIMARY KEY,
        account_id            text        NOT NULL,
        external_customer_id  text,
        first_name            text,
        last_name             text,
        email                 text,
        phone_number          text,
        address               jsonb       NOT NULL DEFAULT '{}'::jsonb,
        metadata              jsonb       NOT NULL DEFAULT '{}'::jsonb,
        created_at            timestamptz NOT NULL DEFAULT now(),
        updated_at            timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query('CREATE INDEX customers_account ON customers (account_id)');
    await runner.query(`
      CREATE TABLE saved_cards (
        saved_card_id   text        PRIMARY KEY,
        customer_id     text        NOT NULL REFERENCES customers (customer_id),
        account_id      text        NOT NULL,
        fingerprint     text        NOT NULL,
        pan_ciphertext  text        NOT NULL,
        masked_number   text        NOT NULL,
        brand           text        NOT NULL,
        bin             text        NOT NULL,
        last4           text        NOT NULL,
        expiry_month    text        NOT NULL,
        expiry_year     text        NOT NULL,
        card_name       text        NOT NULL DEFAULT '',
        billing         jsonb       NOT NULL DEFAULT '{}'::jsonb,
        created_at      timestamptz NOT NULL DEFAULT now(),
        UNIQUE (customer_id, fingerprint)
      )`);
    await runner.query(`
      CREATE TABLE payment_intents (
        payment_intent_id         text        PRIMARY KEY,
        account_id                text        NOT NULL,
        master_account_id         text        NOT NULL,
        create_command_id         text        UNIQUE,
        amount_minor              bigint      NOT NULL CHECK (amount_minor > 0),
        currency                  text        NOT NULL,
        status                    text        NOT NULL CHECK (status IN (${list(INTENT_STATUSES)})),
        description               text        NOT NULL,
        merchant_order_id         text        NOT NULL,
        return_url                text        NOT NULL,
        metadata                  jsonb       NOT NULL DEFAULT '{}'::jsonb,
        payment_orders            jsonb,
        customer_id               text        REFERENCES customers (customer_id),
        client_secret             text        NOT NULL UNIQUE,
        client_secret_expires_at  timestamptz NOT NULL,
        captured_amount_minor     bigint      NOT NULL DEFAULT 0 CHECK (captured_amount_minor >= 0),
        cancellation_reason       text,
        cancelled_at              timestamptz,
        completed_at              timestamptz,
        latest_attempt_id         text,
        ip_address                text,
        browser_info              jsonb,
        created_at                timestamptz NOT NULL DEFAULT now(),
        updated_at                timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query('CREATE INDEX payment_intents_account_created ON payment_intents (account_id, created_at DESC)');
    await runner.query(`
      CREATE TABLE payment_attempts (
        attempt_id              text        PRIMARY KEY,
        payment_intent_id       text        NOT NULL REFERENCES payment_intents (payment_intent_id),
        account_id              text        NOT NULL,
        command_id              text        UNIQUE,
        attempt_status          text        NOT NULL CHECK (attempt_status IN (${list(ATTEMPT_STATUSES)})),
        amount_minor            bigint      NOT NULL CHECK (amount_minor > 0),
        currency                text        NOT NULL,
        captured_amount_minor   bigint      NOT NULL DEFAULT 0 CHECK (captured_amount_minor >= 0),
        refunded_amount_minor   bigint      NOT NULL DEFAULT 0 CHECK (refunded_amount_minor >= 0),
        auto_capture            boolean     NOT NULL,
        card                    jsonb       NOT NULL,
        saved_card_id           text,
        three_ds_action         text,
        processor               text        NOT NULL,
        processor_reference     text,
        auth_code               text        NOT NULL DEFAULT '',
        arn                     text        NOT NULL DEFAULT '',
        rrn                     text        NOT NULL DEFAULT '',
        advice_code             text        NOT NULL DEFAULT '',
        authentication_data     jsonb       NOT NULL DEFAULT '{}'::jsonb,
        failure_code            text        NOT NULL DEFAULT '',
        failure_message         text        NOT NULL DEFAULT '',
        cancellation_reason     text        NOT NULL DEFAULT '',
        authorized_at           timestamptz,
        completed_at            timestamptz,
        created_at              timestamptz NOT NULL DEFAULT now(),
        updated_at              timestamptz NOT NULL DEFAULT now(),
        CHECK (captured_amount_minor <= amount_minor),
        CHECK (refunded_amount_minor <= captured_amount_minor)
      )`);
    await runner.query('CREATE INDEX payment_attempts_intent ON payment_attempts (payment_intent_id, created_at DESC)');
    await runner.query('CREATE INDEX payment_attempts_account ON payment_attempts (account_id, created_at DESC)');
    await runner.query(`
      CREATE TABLE refunds (
        refund_id            text        PRIMARY KEY,
        payment_intent_id    text        NOT NULL REFERENCES payment_intents (payment_intent_id),
        payment_attempt_id   text        NOT NULL REFERENCES payment_attempts (attempt_id),
        account_id           text        NOT NULL,
        master_account_id    text        NOT NULL,
        amount_minor         bigint      NOT NULL CHECK (amount_minor > 0),
        currency             text        NOT NULL,
        status               text        NOT NULL CHECK (status IN (${list(REFUND_STATUSES)})),
        reason               text        NOT NULL DEFAULT '',
        metadata             jsonb       NOT NULL DEFAULT '{}'::jsonb,
        failure_code         text        NOT NULL DEFAULT '',
        processor_reference  text,
        created_at           timestamptz NOT NULL DEFAULT now(),
        updated_at           timestamptz NOT NULL DEFAULT now(),
        completed_at         timestamptz
      )`);
    await runner.query('CREATE INDEX refunds_account_created ON refunds (account_id, created_at DESC)');
    await runner.query('CREATE INDEX refunds_intent ON refunds (payment_intent_id)');
    await runner.query(`
      CREATE TABLE settlement_batches (
        settlement_batch_id  text        PRIMARY KEY,
        account_id           text        NOT NULL,
        currency             text        NOT NULL,
        settlement_date      date        NOT NULL,
        created_at           timestamptz NOT NULL DEFAULT now(),
        UNIQUE (account_id, currency, settlement_date)
      )`);
    await runner.query(`
      CREATE TABLE settlements (
        settlement_id        text        PRIMARY KEY,
        settlement_batch_id  text        NOT NULL REFERENCES settlement_batches (settlement_batch_id),
        payment_intent_id    text        NOT NULL REFERENCES payment_intents (payment_intent_id),
        payment_attempt_id   text        NOT NULL UNIQUE REFERENCES payment_attempts (attempt_id),
        account_id           text        NOT NULL,
        master_account_id    text        NOT NULL,
        currency             text        NOT NULL,
        amount_minor         bigint      NOT NULL CHECK (amount_minor > 0),
        fee_minor            bigint      NOT NULL DEFAULT 0 CHECK (fee_minor >= 0),
        net_minor            bigint      NOT NULL,
        status               text        NOT NULL CHECK (status IN ('SUCCEEDED', 'FAILED')),
        settled_at           timestamptz NOT NULL,
        created_at           timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query('CREATE INDEX settlements_account_settled ON settlements (account_id, settled_at DESC)');
    await runner.query(`
      CREATE TABLE scheduled_jobs (
        job_id       text        PRIMARY KEY,
        kind         text        NOT NULL CHECK (kind IN (${list(JOB_KINDS)})),
        subject_id   text        NOT NULL,
        due_at       timestamptz NOT NULL,
        state        text        NOT NULL CHECK (state IN ('pending', 'done')),
        attempts     integer     NOT NULL DEFAULT 0,
        last_error   text,
        enqueued_at  timestamptz,
        created_at   timestamptz NOT NULL DEFAULT now(),
        updated_at   timestamptz NOT NULL DEFAULT now(),
        UNIQUE (kind, subject_id)
      )`);
    await runner.query(`CREATE INDEX scheduled_jobs_pending ON scheduled_jobs (due_at) WHERE state = 'pending'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of [
      'scheduled_jobs',
      'settlements',
      'settlement_batches',
      'refunds',
      'payment_attempts',
      'payment_intents',
      'saved_cards',
      'customers',
      'account_settings',
    ]) {
      await runner.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
