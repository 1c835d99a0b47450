import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The accounts service's own tables: accounts (masters and their sub-accounts, both entity variants)
 * and API credentials (only the HMAC of each key is stored).
 *
 * Statuses are text with CHECK constraints rather than Postgres enums, so a new status is a constraint
 * change, not a type migration. Nested, client-supplied documents (addresses, representatives, KYB
 * details) are jsonb: they are read and written whole and never queried by field.
 */
export class AccountsAndCredentials1730000000000 implements MigrationInterface {
  name = 'AccountsAndCredentials1730000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE accounts (
        account_id            uuid        PRIMARY KEY,
        short_reference_id    text        NOT NULL UNIQUE,
        parent_account_id     uuid        REFERENCES accounts (account_id),
        business_code         text[]      NOT NULL,
        entity_type           text        NOT NULL,
        status                text        NOT NULL,
        verification_status   text        NOT NULL,
        review_reason         text,
        review_due_at         timestamptz,
        email                 text        NOT NULL,
        account_name          text        NOT NULL,
        nickname              text,
        country               text        NOT NULL,
        contact_details       jsonb       NOT NULL DEFAULT '{}'::jsonb,
        business_details      jsonb,
        person_details        jsonb,
        registration_address  jsonb,
        residential_address   jsonb,
        business_address      jsonb       NOT NULL DEFAULT '[]'::jsonb,
        representatives       jsonb       NOT NULL DEFAULT '[]'::jsonb,
        documents             jsonb       NOT NULL DEFAULT '[]'::jsonb,
        tos_acceptance        jsonb,
        onboarding_details    jsonb       NOT NULL DEFAULT '{}'::jsonb,
        capture_window_hours  integer     NOT NULL DEFAULT 24,
        created_at            timestamptz NOT NULL DEFAULT now(),
        updated_at            timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT accounts_business_code_check CHECK (
          cardinality(business_code) >= 1 AND business_code <@ ARRAY['BANKING', 'ACQUIRING', 'ISSUING', 'RAMP']::text[]
        ),
        CONSTRAINT accounts_entity_type_check CHECK (entity_type IN ('COMPANY', 'INDIVIDUAL')),
        CONSTRAINT accounts_status_check CHECK (status IN ('ACTIVE', 'PROCESSING', 'INACTIVE', 'CLOSED')),
        CONSTRAINT accounts_verification_status_check CHECK (
          verification_status IN ('APPROVED', 'PENDING', 'REJECT', 'EXPIRED', 'RETURN')
        ),
        CONSTRAINT accounts_email_length_check CHECK (char_length(email) <= 100),
        CONSTRAINT accounts_country_check CHECK (country ~ '^[A-Z]{2}$'),
        CONSTRAINT accounts_capture_window_check CHECK (capture_window_hours BETWEEN 1 AND 24),
        CONSTRAINT accounts_not_own_parent_check CHECK (parent_account_id IS DISTINCT FROM account_id),
        CONSTRAINT accounts_json_arrays_check CHECK (
          jsonb_typeof(business_address) = 'array'
          AND jsonb_typeof(representatives) = 'array'
          AND jsonb_typeof(documents) = 'array'
        )
      )`);
    await runner.query(`CREATE INDEX accounts_by_parent ON accounts (parent_account_id, created_at, account_id)`);
    await runner.query(`CREATE INDEX accounts_review_due ON accounts (review_due_at) WHERE review_due_at IS NOT NULL`);

    await runner.query(`
      CREATE TABLE api_credentials (
        key_id         text        PRIMARY KEY,
        client_id      text        NOT NULL UNIQUE,
        account_id     uuid        NOT NULL REFERENCES accounts (account_id),
        key_hash       text        NOT NULL,
        ip_allowlist   text[]      NOT NULL DEFAULT '{}',
        permissions    text[]      NOT NULL DEFAULT '{}',
        label          text,
        created_at     timestamptz NOT NULL DEFAULT now(),
        revoked_at     timestamptz,
        CONSTRAINT api_credentials_key_hash_check CHECK (key_hash ~ '^[0-9a-f]{64}$'),
        CONSTRAINT api_credentials_permissions_check CHECK (permissions <@ ARRAY['sensitive_card_details']::text[])
      )`);
    await runner.query(`CREATE INDEX api_credentials_by_account ON api_credentials (account_id, created_at)`);
    await runner.query(`CREATE INDEX api_credentials_revoked ON api_credentials (key_id) WHERE revoked_at IS NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS api_credentials');
    await runner.query('DROP TABLE IF EXISTS accounts');
  }
}
