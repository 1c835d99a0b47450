import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issuing funds (issue 11, part A): simulated deposits, transfers between a master account and its sub-accounts,
 * and reports. Their money lives only in the ledger (references `issuing_deposit:<id>`, `issuing_transfer:<id>:*`);
 * these rows hold what the API shows about them. Statuses are text with CHECK constraints, frozen as of this
 * migration (a new status is a new migration).
 */
export class IssuingFunds1760000000100 implements MigrationInterface {
  name = 'IssuingFunds1760000000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE issuing_deposits (
        deposit_id          uuid        PRIMARY KEY,
        short_reference_id  text        NOT NULL UNIQUE,
        account_id          uuid        NOT NULL,
        master_account_id   uuid        NOT NULL,
        currency            text        NOT NULL,
        amount_minor        bigint      NOT NULL CHECK (amount_minor > 0),
        deposit_status      text        NOT NULL CHECK (deposit_status IN ('PENDING', 'COMPLETED', 'FAILED')),
        sender              jsonb       NOT NULL,
        receiver_account_number text,
        created_at          timestamptz NOT NULL DEFAULT now(),
        completed_at        timestamptz
      )`);

    await runner.query(`
      CREATE TABLE issuing_transfers (
        transfer_id             uuid        PRIMARY KEY,
        short_transaction_id    text        NOT NULL UNIQUE,
        master_account_id       uuid        NOT NULL,
        creator_account_id      uuid        NOT NULL,
        source_account_id       uuid        NOT NULL,
        destination_account_id  uuid        NOT NULL CHECK (destination_account_id <> source_account_id),
        currency                text        NOT NULL,
        amount_minor            bigint      NOT NULL CHECK (amount_minor > 0),
        transfer_status         text        NOT NULL CHECK (transfer_status IN ('PENDING', 'COMPLETED', 'FAILED')),
        remark                  text,
        failure_reason          text,
        created_at              timestamptz NOT NULL DEFAULT now(),
        updated_at              timestamptz NOT NULL DEFAULT now(),
        completed_at            timestamptz
      )`);
    await runner.query(`CREATE INDEX issuing_transfers_by_source ON issuing_transfers (source_account_id, created_at DESC, transfer_id)`);
    await runner.query(`CREATE INDEX issuing_transfers_by_destination ON issuing_transfers (destination_account_id, created_at DESC, transfer_id)`);

    await runner.query(`
      CREATE TABLE issuing_reports (
        report_id          uuid        PRIMARY KEY,
        account_id         uuid        NOT NULL,
        master_account_id  uuid        NOT NULL,
        report_type        text        NOT NULL CHECK (report_type IN ('SETTLEMENT', 'BALANCE_TRANSACTION')),
        report_status      text        NOT NULL CHECK (report_status IN ('PENDING', 'SUCCEEDED', 'FAILED')),
        range_start        timestamptz NOT NULL,
        range_end          timestamptz NOT NULL CHECK (range_end > range_start),
        row_count          int,
        file_name          text,
        content            text,
        failure_reason     text,
        created_at         timestamptz NOT NULL DEFAULT now(),
        completed_at       timestamptz
      )`);
    await runner.query(`CREATE INDEX issuing_reports_by_account ON issuing_reports (account_id, created_at DESC)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['issuing_reports', 'issuing_transfers', 'issuing_deposits']) await runner.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
