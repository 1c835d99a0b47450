import { Injectable } from '@nestjs/common';
import { Executor, rowsOf } from '@paygrid/platform';
import { CardType } from '@paygrid/contracts';
import type { StoredCardNumber } from '../crypto/card-mint';

/**
 * The account's pool of pre-provisioned card numbers (spec 4.7): physical cards with activation codes (the
 * sandbox seed's) and unassigned virtual cards (bulk create). Numbers only encrypted; found by fingerprint.
 */
export interface PoolCard extends StoredCardNumber {
  poolCardId: string;
  accountId: string;
  productId: string;
  formFactor: CardType;
  activationCodeHash: string | null;
  sandboxSequence: number | null;
  assignedCardId: string | null;
}

export type NewPoolCard = Omit<PoolCard, 'assignedCardId'> & { bulkOrderId: string | null };

function fromRow(row: Record<string, unknown>): PoolCard {
  return {
    poolCardId: row.pool_card_id as string,
    accountId: row.account_id as string,
    productId: row.product_id as string,
    formFactor: row.form_factor as CardType,
    maskedNumber: row.masked_number as string,
    panCiphertext: row.pan_ciphertext as string,
    cvvCiphertext: row.cvv_ciphertext as string,
    panFingerprint: row.pan_fingerprint as string,
    expiryMonth: Number(row.expiry_month),
    expiryYear: Number(row.expiry_year),
    activationCodeHash: (row.activation_code_hash as string | null) ?? null,
    sandboxSequence: row.sandbox_sequence === null ? null : Number(row.sandbox_sequence),
    assignedCardId: (row.assigned_card_id as string | null) ?? null,
  };
}

@Injectable()
export class PoolRepository {
  /** False when the number is already in some pool (fingerprint taken). */
  async insert(executor: Executor, card: NewPoolCard): Promise<boolean> {
    const inserted = await executor.query(
      `INSERT INTO pool_cards (pool_card_id, account_id, product_id, form_factor, masked_number, pan_ciphertext, cvv_ciphertext,
         pan_fingerprint, expiry_month, expiry_year, activation_code_hash, sandbox_sequence, bulk_order_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (pan_fingerprint) DO NOTHING RETURNING pool_card_id`,
      [
        card.poolCardId,
        card.accountId,
        card.productId,
        card.formFactor,
        card.maskedNumber,
        card.panCiphertext,
        card.cvvCiphertext,
        card.panFingerprint,
        card.expiryMonth,
        card.expiryYear,
        card.activationCodeHash,
        card.sandboxSequence,
        card.bulkOrderId,
      ],
    );
    return rowsOf(inserted).length === 1;
  }

  /** The account's unassigned pool card with this number, locked for the assignment. */
  async lockUnassigned(executor: Executor, accountId: string, fingerprint: string): Promise<PoolCard | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(
        `SELECT * FROM pool_cards WHERE pan_fingerprint = $1 AND account_id = $2 AND assigned_card_id IS NULL FOR UPDATE`,
        [fingerprint, accountId],
      ),
    );
    return row ? fromRow(row) : undefined;
  }

  async markAssigned(executor: Executor, poolCardId: string, cardId: string): Promise<void> {
    await executor.query(`UPDATE pool_cards SET assigned_card_id = $2 WHERE pool_card_id = $1 AND assigned_card_id IS NULL`, [poolCardId, cardId]);
  }

  /** Sandbox sequence numbers of the account's pool cards nobody was assigned yet (what `npm start` prints). */
  async readySandboxSequences(executor: Executor, accountId: string): Promise<number[]> {
    const rows = rowsOf<{ sandbox_sequence: number }>(
      await executor.query(
        `SELECT sandbox_sequence FROM pool_cards WHERE account_id = $1 AND assigned_card_id IS NULL AND sandbox_sequence IS NOT NULL
          ORDER BY sandbox_sequence`,
        [accountId],
      ),
    );
    return rows.map((row) => Number(row.sandbox_sequence));
  }
}
