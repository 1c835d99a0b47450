/**
 * Why: the ledger's tables live in the database of the service that owns the money (payouts, issuing), created
 * by that service's own migrations (architecture rule 1). This is schema version 1 of those tables, frozen: a
 * later change is a new migration, never an edit here.
 *
 * What Postgres itself guarantees, whatever code runs against it:
 * - entries and postings are append-only: a trigger refuses every UPDATE, DELETE and TRUNCATE (corrections are
 *   new entries);
 * - every posting statement leaves each entry it touched summing to zero per currency (statement trigger), and an
 *   entry cannot commit without postings (deferred constraint trigger), so a transaction that swallowed an
 *   InsufficientFundsError cannot commit its half-applied entry;
 * - a posting's currency is its account's (composite foreign key), its amount is non-zero;
 * - an account that may not go negative never holds a negative balance (trigger);
 * - an account's identity (owner, currency, bucket, allows_negative) never changes and accounts are never deleted.
 *
 * The balance cache is the `balance` column of the account row: one row to lock per account, created with the
 * account by the same upsert that applies a posting (see post-entry.ts).
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

export function ledgerTablesSql(): readonly string[] {
  return [
    `CREATE TABLE ledger_accounts (
      id               bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      owner_id         text        NOT NULL CHECK (length(owner_id) BETWEEN 1 AND 128),
      currency         text        NOT NULL CHECK (currency ~ '^[A-Z]{3,4}$'),
      bucket           text        NOT NULL CHECK (bucket ~ '^[a-z][a-z0-9_]{0,62}$'),
      allows_negative  boolean     NOT NULL,
      balance          bigint      NOT NULL DEFAULT 0,
      created_at       timestamptz NOT NULL DEFAULT now(),
      updated_at       timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT ledger_accounts_key UNIQUE (owner_id, currency, bucket),
      CONSTRAINT ledger_accounts_id_currency UNIQUE (id, currency)
    )`,
    `CREATE TABLE ledger_entries (
      id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      reference    text        NOT NULL CHECK (length(reference) BETWEEN 1 AND 255),
      kind         text        NOT NULL CHECK (kind ~ '^[a-z][a-z0-9_.]{0,63}$'),
      occurred_at  timestamptz NOT NULL DEFAULT now(),
      recorded_at  timestamptz NOT NULL DEFAULT now(),
      metadata     jsonb       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(metadata) = 'object'),
      CONSTRAINT ledger_entries_reference UNIQUE (reference)
    )`,
    `CREATE INDEX ledger_entries_newest ON ledger_entries (occurred_at DESC, id DESC)`,
    `CREATE TABLE ledger_postings (
      id                 bigint   GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      entry_id           bigint   NOT NULL REFERENCES ledger_entries (id),
      line               smallint NOT NULL CHECK (line >= 1),
      ledger_account_id  bigint   NOT NULL,
      currency           text     NOT NULL,
      amount             bigint   NOT NULL CHECK (amount <> 0),
      balance_after      bigint   NOT NULL,
      CONSTRAINT ledger_postings_line UNIQUE (entry_id, line),
      CONSTRAINT ledger_postings_account FOREIGN KEY (ledger_account_id, currency)
        REFERENCES ledger_accounts (id, currency)
    )`,
    `CREATE INDEX ledger_postings_by_account ON ledger_postings (ledger_account_id, id)`,

    `CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '% is append-only: % refused (correct it with a new entry)', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'restrict_violation';
    END $$`,
    `CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()`,
    `CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change()`,
    `CREATE TRIGGER ledger_postings_append_only BEFORE UPDATE OR DELETE ON ledger_postings
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()`,
    `CREATE TRIGGER ledger_postings_no_truncate BEFORE TRUNCATE ON ledger_postings
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change()`,
    `CREATE TRIGGER ledger_accounts_never_deleted BEFORE DELETE ON ledger_accounts
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()`,
    `CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_accounts
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change()`,
    `CREATE TRIGGER ledger_accounts_identity_fixed BEFORE UPDATE ON ledger_accounts
      FOR EACH ROW WHEN (
        OLD.owner_id IS DISTINCT FROM NEW.owner_id OR OLD.currency IS DISTINCT FROM NEW.currency
        OR OLD.bucket IS DISTINCT FROM NEW.bucket OR OLD.allows_negative IS DISTINCT FROM NEW.allows_negative
        OR OLD.created_at IS DISTINCT FROM NEW.created_at
      ) EXECUTE FUNCTION ledger_refuse_change()`,

    `CREATE FUNCTION ledger_refuse_negative() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'ledger account %/%/% may not go negative: balance would be %',
        NEW.owner_id, NEW.currency, NEW.bucket, NEW.balance USING ERRCODE = 'check_violation';
    END $$`,
    // A trigger, not a CHECK: Postgres checks CHECK constraints on the row an INSERT ... ON CONFLICT proposes,
    // before it finds the conflict, and post-entry.ts proposes each account's delta (negative for a debit) as
    // that row. An AFTER trigger sees only rows really written; its WHEN keeps the cost off every other row.
    `CREATE TRIGGER ledger_accounts_non_negative AFTER INSERT OR UPDATE ON ledger_accounts
      FOR EACH ROW WHEN (NOT NEW.allows_negative AND NEW.balance < 0) EXECUTE FUNCTION ledger_refuse_negative()`,

    `CREATE FUNCTION ledger_check_postings_balance() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      off record;
    BEGIN
      SELECT p.entry_id, p.currency, sum(p.amount) AS total INTO off
        FROM ledger_postings p
       WHERE p.entry_id IN (SELECT DISTINCT entry_id FROM inserted)
       GROUP BY p.entry_id, p.currency
      HAVING sum(p.amount) <> 0
       LIMIT 1;
      IF FOUND THEN
        RAISE EXCEPTION 'ledger entry % does not balance: % postings sum to %', off.entry_id, off.currency, off.total
          USING ERRCODE = 'check_violation';
      END IF;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER ledger_postings_balance AFTER INSERT ON ledger_postings
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger_check_postings_balance()`,

    `CREATE FUNCTION ledger_check_entry_posted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM ledger_postings WHERE entry_id = NEW.id) THEN
        RAISE EXCEPTION 'ledger entry % (%) has no postings at commit', NEW.id, NEW.reference
          USING ERRCODE = 'check_violation';
      END IF;
      RETURN NULL;
    END $$`,
    `CREATE CONSTRAINT TRIGGER ledger_entries_posted AFTER INSERT ON ledger_entries
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_entry_posted()`,
  ];
}

export function dropLedgerTablesSql(): readonly string[] {
  return [
    'DROP TABLE IF EXISTS ledger_postings',
    'DROP TABLE IF EXISTS ledger_entries',
    'DROP TABLE IF EXISTS ledger_accounts',
    'DROP FUNCTION IF EXISTS ledger_check_entry_posted()',
    'DROP FUNCTION IF EXISTS ledger_check_postings_balance()',
    'DROP FUNCTION IF EXISTS ledger_refuse_negative()',
    'DROP FUNCTION IF EXISTS ledger_refuse_change()',
  ];
}

/**
 * A TypeORM migration class creating the ledger tables, for a service's `migrations` list. `timestamp` orders it
 * among the service's own migrations (TypeORM reads the last 13 digits of the name).
 */
export function createLedgerTablesMigration(timestamp: number): new () => MigrationInterface {
  if (!Number.isSafeInteger(timestamp) || String(timestamp).length !== 13) {
    throw new RangeError(`a migration timestamp has 13 digits (milliseconds since 1970), got ${timestamp}`);
  }
  const name = `LedgerTables${timestamp}`;
  return class LedgerTablesMigration implements MigrationInterface {
    name = name;

    async up(runner: QueryRunner): Promise<void> {
      for (const statement of ledgerTablesSql()) await runner.query(statement);
    }

    async down(runner: QueryRunner): Promise<void> {
      for (const statement of dropLedgerTablesSql()) await runner.query(statement);
    }
  };
}
