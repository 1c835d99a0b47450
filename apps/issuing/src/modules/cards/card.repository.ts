import { Injectable } from '@nestjs/common';
import { CardStatus } from '@paygrid/contracts';
import { Executor, rowsOf } from '@paygrid/platform';
import { applyTransition } from '@paygrid/state-machine';
import { CardEvent, cardMachine, LIVE_CARD_STATUSES } from './card.states';
import { Card, cardFromRow, CardholderSummary, cardholderSummaryFromRow } from './card.types';

/** All SQL of cards. Every read is scoped to the acting account: another account's card is a missing one. */
export type NewCard = Omit<Card, 'status' | 'updateReason' | 'activatedAt' | 'networkProtectionAt' | 'createdAt' | 'updatedAt' | 'pinHash'> & {
  status: CardStatus;
  panFingerprint: string;
};

export interface CardWithHolder {
  card: Card;
  cardholder: CardholderSummary | null;
}

const SELECT_WITH_HOLDER = `SELECT c.*, h.cardholder_id AS h_cardholder_id, h.first_name AS h_first_name, h.last_name AS h_last_name,
  h.email AS h_email FROM cards c LEFT JOIN cardholders h ON h.cardholder_id = c.cardholder_id`;

@Injectable()
export class CardRepository {
  async insert(executor: Executor, card: NewCard): Promise<Card> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(
        `INSERT INTO cards (card_id, account_id, master_account_id, cardholder_id, product_id, card_status, form_factor, mode_type, currency,
           masked_number, pan_ciphertext, cvv_ciphertext, pan_fingerprint, expiry_month, expiry_year, card_limit_minor, spending_controls,
           risk_controls, metadata, usage_type, auto_cancel_trigger, expiry_at, no_pin_amount_minor, card_art_id, activation_code_hash,
           issued_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26)
         RETURNING *`,
        [
          card.cardId,
          card.accountId,
          card.masterAccountId,
          card.cardholderId,
          card.productId,
          card.status,
          card.formFactor,
          card.modeType,
          card.currency,
          card.maskedNumber,
          card.panCiphertext,
          card.cvvCiphertext,
          card.panFingerprint,
          card.expiryMonth,
          card.expiryYear,
          String(card.cardLimitMinor),
          JSON.stringify(card.spendingControls),
          JSON.stringify(card.riskControls),
          JSON.stringify(card.metadata),
          card.usageType,
          card.autoCancelTrigger,
          card.expiryAt,
          String(card.noPinAmountMinor),
          card.cardArtId,
          card.activationCodeHash,
          card.issuedAt,
        ],
      ),
    );
    return cardFromRow(row);
  }

  async find(executor: Executor, accountId: string, cardId: string, options: { lock?: boolean } = {}): Promise<Card | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`SELECT * FROM cards WHERE card_id = $1 AND account_id = $2${options.lock ? ' FOR UPDATE' : ''}`, [cardId, accountId]),
    );
    return row ? cardFromRow(row) : undefined;
  }

  async findById(executor: Executor, cardId: string, options: { lock?: boolean } = {}): Promise<Card | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`SELECT * FROM cards WHERE card_id = $1${options.lock ? ' FOR UPDATE' : ''}`, [cardId]),
    );
    return row ? cardFromRow(row) : undefined;
  }

  async findWithHolder(executor: Executor, accountId: string, cardId: string): Promise<CardWithHolder | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`${SELECT_WITH_HOLDER} WHERE c.card_id = $1 AND c.account_id = $2`, [cardId, accountId]),
    );
    return row ? { card: cardFromRow(row), cardholder: cardholderSummaryFromRow(row) } : undefined;
  }

  async list(
    executor: Executor,
    accountId: string,
    query: { status?: CardStatus; cardholderId?: string; fingerprint?: string; pageNumber: number; pageSize: number },
  ): Promise<{ items: CardWithHolder[]; total: number }> {
    const where = `c.account_id = $1 AND ($2::text IS NULL OR c.card_status = $2) AND ($3::uuid IS NULL OR c.cardholder_id = $3)
      AND ($4::text IS NULL OR c.pan_fingerprint = $4)`;
    const params = [accountId, query.status ?? null, query.cardholderId ?? null, query.fingerprint ?? null];
    const rows = rowsOf<Record<string, unknown>>(
      await executor.query(
        `${SELECT_WITH_HOLDER.replace('SELECT c.*', 'SELECT c.*, count(*) OVER () AS total')} WHERE ${where}
          ORDER BY c.created_at DESC, c.card_id LIMIT $5 OFFSET $6`,
        [...params, query.pageSize, (query.pageNumber - 1) * query.pageSize],
      ),
    );
    let total = rows.length > 0 ? Number(rows[0].total) : 0;
    if (rows.length === 0 && query.pageNumber > 1) {
      const [count] = rowsOf<{ n: number }>(await executor.query(`SELECT count(*)::int AS n FROM cards c WHERE ${where}`, params));
      total = count.n;
    }
    return { items: rows.map((row) => ({ card: cardFromRow(row), cardholder: cardholderSummaryFromRow(row) })), total };
  }

  /** Cards of a product (or a cardholder) that still count against its quota. */
  async liveCount(executor: Executor, scope: { productId: string } | { cardholderId: string }): Promise<number> {
    const [column, value] = 'productId' in scope ? ['product_id', scope.productId] : ['cardholder_id', scope.cardholderId];
    const [row] = rowsOf<{ n: number }>(
      await executor.query(`SELECT count(*)::int AS n FROM cards WHERE ${column} = $1 AND card_status = ANY($2)`, [value, [...LIVE_CARD_STATUSES]]),
    );
    return row.n;
  }

  /** A status change through the card machine (a conditional update, architecture rule 5). */
  async transition(executor: Executor, cardId: string, event: CardEvent, set: Record<string, unknown> = {}): Promise<Card> {
    const row = await applyTransition(executor, cardMachine, {
      table: 'cards',
      id: cardId,
      idColumn: 'card_id',
      statusColumn: 'card_status',
      event,
      set: { ...set, updated_at: new Date() },
    });
    return cardFromRow(row);
  }

  async setFields(executor: Executor, cardId: string, fields: Record<string, unknown>): Promise<Card> {
    const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
    const assignments = entries.map(([column], index) => `${column} = $${index + 2}`);
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`UPDATE cards SET ${[...assignments, 'updated_at = now()'].join(', ')} WHERE card_id = $1 RETURNING *`, [
        cardId,
        ...entries.map(([, value]) => value),
      ]),
    );
    return cardFromRow(row);
  }
}
