import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Card transactions (issue 11, part B) and each account's real-time decision endpoint. Money stays in the
 * ledger: a row records what happened (type, status, amounts in minor units, merchant, why it was declined) and
 * which ledger bucket paid (`funding_owner`), while the hold, its clearing or release are ledger entries whose
 * references derive from the transaction id. `hold_state` is the authorization's life: HELD until it clears
 * (CLEARED) or is reversed (REVERSED); each change is a conditional update under the row's lock.
 */
const list = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');
const TYPES = ['AUTHORIZATION', 'REVERSAL', 'REFUND', 'CHARGEBACK_CREDIT', 'CHARGEBACK_DEBIT'];
const STATUSES = ['APPROVED', 'DECLINED', 'PENDING', 'REVERSED'];
const HOLD_STATES = ['HELD', 'CLEARED', 'REVERSED'];

export class CardTransactions1760000000200 implements MigrationInterface {
  name = 'CardTransactions1760000000200';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE card_transactions (
        transaction_id           uuid        PRIMARY KEY,
        short_sequence           bigserial   NOT NULL UNIQUE,
        account_id               uuid        NOT NULL,
        master_account_id        uuid        NOT NULL,
        card_id                  uuid        NOT NULL REFERENCES cards (card_id),
        cardholder_id            uuid,
        masked_number            text        NOT NULL,
        original_transaction_id  uuid        REFERENCES card_transactions (transaction_id),
        transaction_type         text        NOT NULL CHECK (transaction_type IN (${list(TYPES)})),
        transaction_status       text        NOT NULL CHECK (transaction_status IN (${list(STATUSES)})),
        hold_state               text        CHECK (hold_state IN (${list(HOLD_STATES)})),
        billing_currency         text        NOT NULL,
        billing_amount_minor     bigint      NOT NULL CHECK (billing_amount_minor > 0),
        transaction_currency     text        NOT NULL,
        transaction_amount_minor bigint      NOT NULL CHECK (transaction_amount_minor > 0),
        funding_owner            uuid        NOT NULL,
        card_available_minor     bigint      NOT NULL,
        authorization_code       text,
        channel                  text,
        merchant_name            text,
        merchant_category_code   text,
        merchant_city            text,
        merchant_country         text,
        description              text,
        decision_response_code   text,
        transaction_time         timestamptz NOT NULL DEFAULT now(),
        posted_time              timestamptz,
        CHECK ((transaction_type = 'AUTHORIZATION' AND transaction_status = 'APPROVED') = (hold_state IS NOT NULL)),
        CHECK ((transaction_type = 'AUTHORIZATION') = (original_transaction_id IS NULL))
      )`);
    await runner.query(`CREATE INDEX card_transactions_account_time ON card_transactions (account_id, transaction_time DESC, transaction_id)`);
    await runner.query(`CREATE INDEX card_transactions_card_time ON card_transactions (card_id, transaction_time DESC)`);
    await runner.query(`CREATE INDEX card_transactions_original ON card_transactions (original_transaction_id) WHERE original_transaction_id IS NOT NULL`);
    await runner.query(`
      CREATE TABLE decision_endpoints (
        account_id        uuid        PRIMARY KEY,
        url               text        NOT NULL,
        default_decision  text        NOT NULL CHECK (default_decision IN ('APPROVE', 'DECLINE')),
        timeout_ms        int         NOT NULL CHECK (timeout_ms BETWEEN 100 AND 5000),
        secret_ciphertext text        NOT NULL,
        created_at        timestamptz NOT NULL DEFAULT now(),
        updated_at        timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE decision_endpoints');
    await runner.query('DROP TABLE card_transactions');
  }
}
