import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The issuing tables. Statuses are text with CHECK constraints (a new status is a constraint change, not an
 * enum migration); money is bigint minor units with its currency beside it, and balances live only in the
 * ledger tables (libs/ledger, next migration). Card numbers and CVVs are stored only as AES-256-GCM
 * ciphertexts whose format names the key that wrote them (`*_ciphertext`); lookups by number go through an
 * HMAC fingerprint. PINs and activation codes are stored only as slow hashes.
 */
/** Frozen copies of the lists as of this migration: a later change is a new migration. */
const list = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');
const CARD_STATUSES = ['PENDING', 'ACTIVE', 'FROZEN', 'BLOCKED', 'CANCELLED', 'LOST', 'STOLEN', 'FAILED'];
const ORDER_STATUSES = ['PENDING', 'PROCESSING', 'SUCCESS', 'FAILED'];
const ORDER_TYPES = ['CARD_CREATE', 'CARD_RECHARGE', 'CARD_WITHDRAW', 'CARD_UPDATE', 'CARD_ELEVATE_LIMIT', 'CARD_STATUS_UPDATE'];
const CARDHOLDER_STATUSES = ['PENDING', 'SUCCESS', 'FAILED', 'INCOMPLETE'];

export class IssuingTables1760000000000 implements MigrationInterface {
  name = 'IssuingTables1760000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE issuing_accounts (
        account_id         uuid        PRIMARY KEY,
        master_account_id  uuid        NOT NULL,
        provisioned_by     text        NOT NULL,
        sandbox_slot       int,
        created_at         timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE card_products (
        product_id                 uuid        PRIMARY KEY,
        account_id                 uuid        NOT NULL REFERENCES issuing_accounts (account_id),
        catalogue_key              text        NOT NULL,
        mode_type                  text        NOT NULL CHECK (mode_type IN ('SHARE', 'SINGLE')),
        card_bin                   text        NOT NULL CHECK (card_bin ~ '^[0-9]{6}$'),
        card_scheme                text        NOT NULL,
        card_forms                 text[]      NOT NULL,
        currencies                 text[]      NOT NULL,
        max_card_quota             int         NOT NULL CHECK (max_card_quota >= 0),
        max_cards_per_cardholder   int         NOT NULL CHECK (max_cards_per_cardholder >= 0),
        no_pin_ceilings            jsonb       NOT NULL,
        product_status             text        NOT NULL CHECK (product_status IN ('ENABLED', 'DISABLED')),
        kyc_level                  text        NOT NULL,
        required_fields            jsonb       NOT NULL,
        card_limit_required        boolean     NOT NULL,
        card_limit_max_minor       bigint      NOT NULL CHECK (card_limit_max_minor > 0),
        allowed_risk_controls      text[]      NOT NULL,
        supports_card_art          boolean     NOT NULL,
        one_time_requires_expiry   boolean     NOT NULL,
        one_time_max_days          int         NOT NULL CHECK (one_time_max_days > 0),
        created_at                 timestamptz NOT NULL DEFAULT now(),
        updated_at                 timestamptz NOT NULL DEFAULT now(),
        UNIQUE (account_id, catalogue_key)
      )`);
    await runner.query(`CREATE INDEX card_products_by_account ON card_products (account_id, created_at, product_id)`);
    await runner.query(`
      CREATE TABLE card_arts (
        card_art_id  uuid        PRIMARY KEY,
        account_id   uuid        NOT NULL REFERENCES issuing_accounts (account_id),
        name         text        NOT NULL,
        is_default   boolean     NOT NULL DEFAULT false,
        created_at   timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE UNIQUE INDEX card_arts_one_default ON card_arts (account_id) WHERE is_default`);

    await runner.query(`
      CREATE TABLE cardholders (
        cardholder_id        uuid        PRIMARY KEY,
        account_id           uuid        NOT NULL,
        master_account_id    uuid        NOT NULL,
        email                text        NOT NULL,
        email_key            text        NOT NULL,
        first_name           text        NOT NULL,
        last_name            text        NOT NULL,
        country_code         text        NOT NULL,
        phone_number         text        NOT NULL,
        phone_key            text        NOT NULL,
        date_of_birth        date,
        delivery_address     jsonb,
        residential_address  jsonb,
        gender               text,
        nationality          text,
        identity             jsonb,
        document_type        text,
        kyc_method           text,
        kyc_reference_id     text,
        cardholder_status    text        NOT NULL CHECK (cardholder_status IN (${list(CARDHOLDER_STATUSES)})),
        review_count         int         NOT NULL DEFAULT 0,
        idv_status           text        NOT NULL DEFAULT '',
        idv_url              text,
        idv_url_expires_at   timestamptz,
        deleted_at           timestamptz,
        created_at           timestamptz NOT NULL DEFAULT now(),
        updated_at           timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX cardholders_by_account ON cardholders (account_id, created_at DESC, cardholder_id) WHERE deleted_at IS NULL`);
    await runner.query(`CREATE UNIQUE INDEX cardholders_email_per_account ON cardholders (account_id, email_key) WHERE deleted_at IS NULL`);
    await runner.query(`CREATE UNIQUE INDEX cardholders_phone_per_account ON cardholders (account_id, phone_key) WHERE deleted_at IS NULL`);
    await runner.query(`CREATE UNIQUE INDEX cardholders_reference_per_account ON cardholders (account_id, kyc_reference_id) WHERE kyc_reference_id IS NOT NULL`);
    await runner.query(`
      CREATE TABLE cardholder_documents (
        cardholder_id  uuid        NOT NULL REFERENCES cardholders (cardholder_id),
        kind           text        NOT NULL,
        content        bytea       NOT NULL,
        sha256         text        NOT NULL,
        approved       boolean     NOT NULL DEFAULT false,
        created_at     timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (cardholder_id, kind)
      )`);

    await runner.query(`
      CREATE TABLE cards (
        card_id                 uuid        PRIMARY KEY,
        account_id              uuid        NOT NULL,
        master_account_id       uuid        NOT NULL,
        cardholder_id           uuid        REFERENCES cardholders (cardholder_id),
        product_id              uuid        NOT NULL REFERENCES card_products (product_id),
        card_status             text        NOT NULL CHECK (card_status IN (${list(CARD_STATUSES)})),
        form_factor             text        NOT NULL CHECK (form_factor IN ('VIRTUAL', 'PHYSICAL')),
        mode_type               text        NOT NULL CHECK (mode_type IN ('SHARE', 'SINGLE')),
        currency                text        NOT NULL,
        masked_number           text        NOT NULL,
        pan_ciphertext          text        NOT NULL,
        cvv_ciphertext          text        NOT NULL,
        pan_fingerprint         text        NOT NULL UNIQUE,
        expiry_month            int         NOT NULL CHECK (expiry_month BETWEEN 1 AND 12),
        expiry_year             int         NOT NULL,
        card_limit_minor        bigint      NOT NULL DEFAULT 0 CHECK (card_limit_minor >= 0),
        spending_controls       jsonb       NOT NULL DEFAULT '[]'::jsonb,
        risk_controls           jsonb       NOT NULL DEFAULT '{}'::jsonb,
        metadata                jsonb       NOT NULL DEFAULT '{}'::jsonb,
        update_reason           text        NOT NULL DEFAULT '',
        usage_type              text        NOT NULL CHECK (usage_type IN ('NORMAL', 'ONE_TIME')),
        auto_cancel_trigger     text        CHECK (auto_cancel_trigger IN ('ON_AUTH', 'ON_CAPTURE')),
        expiry_at               timestamptz,
        no_pin_amount_minor     bigint      NOT NULL DEFAULT 0 CHECK (no_pin_amount_minor >= 0),
        card_art_id             uuid        REFERENCES card_arts (card_art_id),
        activation_code_hash    text,
        pin_hash                text,
        issued_at               timestamptz,
        activated_at            timestamptz,
        network_protection_at   timestamptz,
        created_at              timestamptz NOT NULL DEFAULT now(),
        updated_at              timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX cards_by_account ON cards (account_id, created_at DESC, card_id)`);
    await runner.query(`CREATE INDEX cards_by_cardholder ON cards (cardholder_id) WHERE cardholder_id IS NOT NULL`);
    await runner.query(`CREATE INDEX cards_by_product ON cards (product_id, card_status)`);

    await runner.query(`
      CREATE TABLE card_orders (
        card_order_id    uuid        PRIMARY KEY,
        card_id          uuid        NOT NULL REFERENCES cards (card_id),
        account_id       uuid        NOT NULL,
        order_type       text        NOT NULL CHECK (order_type IN (${list(ORDER_TYPES)})),
        order_status     text        NOT NULL CHECK (order_status IN (${list(ORDER_STATUSES)})),
        amount_minor     bigint      NOT NULL DEFAULT 0 CHECK (amount_minor >= 0),
        currency         text        NOT NULL,
        details          jsonb       NOT NULL DEFAULT '{}'::jsonb,
        failure_reason   text,
        effective_until  timestamptz,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now(),
        completed_at     timestamptz
      )`);
    await runner.query(`CREATE INDEX card_orders_by_card ON card_orders (card_id, order_type, order_status)`);

    await runner.query(`
      CREATE TABLE pool_cards (
        pool_card_id          uuid        PRIMARY KEY,
        account_id            uuid        NOT NULL REFERENCES issuing_accounts (account_id),
        product_id            uuid        NOT NULL REFERENCES card_products (product_id),
        form_factor           text        NOT NULL CHECK (form_factor IN ('VIRTUAL', 'PHYSICAL')),
        masked_number         text        NOT NULL,
        pan_ciphertext        text        NOT NULL,
        cvv_ciphertext        text        NOT NULL,
        pan_fingerprint       text        NOT NULL UNIQUE,
        expiry_month          int         NOT NULL,
        expiry_year           int         NOT NULL,
        activation_code_hash  text,
        sandbox_sequence      int,
        bulk_order_id         uuid,
        assigned_card_id      uuid        REFERENCES cards (card_id),
        created_at            timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX pool_cards_ready ON pool_cards (account_id, sandbox_sequence) WHERE assigned_card_id IS NULL`);

    await runner.query(`
      CREATE TABLE pan_tokens (
        token_hash  text        PRIMARY KEY,
        card_id     uuid        NOT NULL REFERENCES cards (card_id),
        expires_at  timestamptz NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['pan_tokens', 'pool_cards', 'card_orders', 'cards', 'cardholder_documents', 'cardholders', 'card_arts', 'card_products', 'issuing_accounts']) {
      await runner.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
