import { Injectable } from '@nestjs/common';
import { Address, Billing, CustomerInput } from '@paygrid/contracts';
import { Customer, NewSavedCard, SavedCard } from './customer.types';
import { Executor, rowsOf } from '@paygrid/platform';

/** All SQL of customers and their saved cards. The PAN ciphertext is read only by `findCardSecret`. */
interface CustomerRow {
  customer_id: string;
  account_id: string;
  external_customer_id: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone_number: string | null;
  address: Address;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

interface SavedCardRow {
  saved_card_id: string;
  customer_id: string;
  account_id: string;
  masked_number: string;
  brand: string;
  bin: string;
  last4: string;
  expiry_month: string;
  expiry_year: string;
  card_name: string;
  billing: Billing;
  created_at: Date;
}

function toCustomer(row: CustomerRow): Customer {
  return {
    id: row.customer_id,
    accountId: row.account_id,
    externalCustomerId: row.external_customer_id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phoneNumber: row.phone_number,
    address: row.address ?? {},
    metadata: row.metadata ?? {},
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function toSavedCard(row: SavedCardRow): SavedCard {
  return {
    id: row.saved_card_id,
    customerId: row.customer_id,
    accountId: row.account_id,
    maskedNumber: row.masked_number,
    brand: row.brand,
    bin: row.bin,
    last4: row.last4,
    expiryMonth: row.expiry_month,
    expiryYear: row.expiry_year,
    cardName: row.card_name,
    billing: row.billing ?? {},
    createdAt: new Date(row.created_at),
  };
}

/** Only what the card list shows; the ciphertext and fingerprint are never selected for display. */
const SAVED_CARD_COLUMNS = `saved_card_id, customer_id, account_id, masked_number, brand, bin, last4, expiry_month,
  expiry_year, card_name, billing, created_at`;

@Injectable()
export class CustomerRepository {
  async insert(executor: Executor, id: string, accountId: string, input: CustomerInput): Promise<Customer> {
    const [row] = rowsOf<CustomerRow>(
      await executor.query(
        `INSERT INTO customers (customer_id, account_id, external_customer_id, first_name, last_name, email, phone_number,
           address, metadata)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
        [
          id,
          accountId,
          input.external_customer_id ?? null,
          input.first_name ?? null,
          input.last_name ?? null,
          input.email ?? null,
          input.phone_number ?? null,
          JSON.stringify(input.address ?? {}),
          JSON.stringify(input.metadata ?? {}),
        ],
      ),
    );
    return toCustomer(row);
  }

  async find(executor: Executor, id: string, accountId: string): Promise<Customer | undefined> {
    const [row] = rowsOf<CustomerRow>(
      await executor.query('SELECT * FROM customers WHERE customer_id = $1 AND account_id = $2', [id, accountId]),
    );
    return row ? toCustomer(row) : undefined;
  }

  /** Saves a card once per customer (same fingerprint: the existing card is kept). */
  async saveCard(executor: Executor, card: NewSavedCard): Promise<void> {
    await executor.query(
      `INSERT INTO saved_cards (saved_card_id, customer_id, account_id, fingerprint, pan_ciphertext, masked_number, brand,
         bin, last4, expiry_month, expiry_year, card_name, billing)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (customer_id, fingerprint) DO UPDATE
         SET expiry_month = EXCLUDED.expiry_month, expiry_year = EXCLUDED.expiry_year`,
      [
        card.id,
        card.customerId,
        card.accountId,
        card.fingerprint,
        card.panCiphertext,
        card.maskedNumber,
        card.brand,
        card.bin,
        card.last4,
        card.expiryMonth,
        card.expiryYear,
        card.cardName,
        JSON.stringify(card.billing),
      ],
    );
  }

  async listCards(executor: Executor, customerId: string): Promise<SavedCard[]> {
    const rows = rowsOf<SavedCardRow>(
      await executor.query(
        `SELECT ${SAVED_CARD_COLUMNS} FROM saved_cards WHERE customer_id = $1 ORDER BY created_at DESC`,
        [customerId],
      ),
    );
    return rows.map(toSavedCard);
  }

  /** The one read of a PAN ciphertext: to charge a saved card. */
  async findCardSecret(
    executor: Executor,
    savedCardId: string,
    customerId: string,
  ): Promise<{ card: SavedCard; panCiphertext: string } | undefined> {
    const [row] = rowsOf<SavedCardRow & { pan_ciphertext: string }>(
      await executor.query(
        `SELECT ${SAVED_CARD_COLUMNS}, pan_ciphertext FROM saved_cards WHERE saved_card_id = $1 AND customer_id = $2`,
        [savedCardId, customerId],
      ),
    );
    return row ? { card: toSavedCard(row), panCiphertext: row.pan_ciphertext } : undefined;
  }
}
