import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The payouts service's own tables (the ledger's come from @paygrid/ledger in their own migration).
 * Statuses are text with CHECK constraints, money is bigint minor units, and the sandbox bank rail's
 * timer is a column on the payout (`next_step_at`), so a restart loses no payout in flight.
 */
export class Payouts1750000000000 implements MigrationInterface {
  name = 'Payouts1750000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE account_directory (
        account_id          text        PRIMARY KEY,
        master_account_id   text        NOT NULL,
        short_reference_id  text,
        account_name        text,
        observed_at         timestamptz NOT NULL
      )`);
    await runner.query(`CREATE UNIQUE INDEX account_directory_short_reference ON account_directory (short_reference_id)`);

    await runner.query(`
      CREATE TABLE bank_accounts (
        bank_account_id    uuid        PRIMARY KEY,
        account_id         text        NOT NULL,
        currency           text        NOT NULL,
        account_number     text        NOT NULL,
        bank_name          text        NOT NULL,
        swift_code         text        NOT NULL,
        bank_country_code  text        NOT NULL,
        bank_address       text        NOT NULL,
        bank_code_type     text        CHECK (bank_code_type IN ('aba', 'bank_code', 'sort_code', 'bsb_code', 'ifsc', 'cnaps_number')),
        bank_code_value    text,
        bank_branch_code   text,
        account_status     text        NOT NULL CHECK (account_status IN ('Valid', 'Invalid')),
        created_at         timestamptz NOT NULL DEFAULT now(),
        updated_at         timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT bank_accounts_one_per_currency UNIQUE (account_id, currency)
      )`);

    await runner.query(`
      CREATE TABLE payouts (
        payout_id             text        PRIMARY KEY,
        account_id            text        NOT NULL,
        master_account_id     text        NOT NULL,
        currency              text        NOT NULL,
        amount_minor          bigint      NOT NULL CHECK (amount_minor > 0),
        statement_descriptor  text        NOT NULL,
        internal_note         text        NOT NULL DEFAULT '',
        destination           text        NOT NULL CHECK (destination IN ('BANK_ACCOUNT', 'INTERNAL')),
        bank_account_id       uuid        REFERENCES bank_accounts (bank_account_id),
        payout_account_id     text,
        status                text        NOT NULL
                              CHECK (status IN ('INITIATED', 'PROCESSING', 'COMPLETED', 'FAILED', 'FAILED_REFUNDED')),
        failure_reason        text        NOT NULL DEFAULT '',
        next_step_at          timestamptz,
        created_at            timestamptz NOT NULL DEFAULT now(),
        updated_at            timestamptz NOT NULL DEFAULT now(),
        completed_at          timestamptz,
        CHECK ((destination = 'BANK_ACCOUNT') = (bank_account_id IS NOT NULL)),
        CHECK ((destination = 'INTERNAL') = (payout_account_id IS NOT NULL)),
        CHECK ((status IN ('COMPLETED', 'FAILED_REFUNDED')) = (next_step_at IS NULL))
      )`);
    await runner.query(`CREATE INDEX payouts_by_account ON payouts (account_id, created_at DESC, payout_id DESC)`);
    await runner.query(`CREATE INDEX payouts_due ON payouts (next_step_at) WHERE next_step_at IS NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS payouts');
    await runner.query('DROP TABLE IF EXISTS bank_accounts');
    await runner.query('DROP TABLE IF EXISTS account_directory');
  }
}
