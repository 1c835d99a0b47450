import { Injectable } from '@nestjs/common';
import { Executor, rowsOf } from '@paygrid/platform';
import { CardTransaction, cardTransactionFromRow, HoldState, NewCardTransaction } from './card-transaction.types';

/** Spend of a card inside each window a spending control can name, in one query. */
export interface SpendWindows {
  day: Date;
  week: Date;
  month: Date;
  year: Date;
}
export interface WindowSpend {
  day: bigint;
  week: bigint;
  month: bigint;
  year: bigint;
  allTime: bigint;
}

/** All SQL of card transactions. Reads a merchant asks for are scoped to the acting account. */
@Injectable()
export class CardTransactionRepository {
  async insert(executor: Executor, transaction: NewCardTransaction): Promise<CardTransaction> {
    const t = transaction;
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(
        `INSERT INTO card_transactions (transaction_id, account_id, master_account_id, card_id, cardholder_id, masked_number,
           original_transaction_id, transaction_type, transaction_status, hold_state, billing_currency, billing_amount_minor,
           transaction_currency, transaction_amount_minor, funding_owner, card_available_minor, authorization_code, channel,
           merchant_name, merchant_category_code, merchant_city, merchant_country, description, decision_response_code, posted_time)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)
         RETURNING *`,
        [
          t.transactionId,
          t.accountId,
          t.masterAccountId,
          t.cardId,
          t.cardholderId,
          t.maskedNumber,
          t.originalTransactionId,
          t.type,
          t.status,
          t.holdState,
          t.billingCurrency,
          String(t.billingAmountMinor),
          t.transactionCurrency,
          String(t.transactionAmountMinor),
          t.fundingOwner,
          String(t.cardAvailableMinor),
          t.authorizationCode,
          t.channel,
          t.merchantName,
          t.merchantCategoryCode,
          t.merchantCity,
          t.merchantCountry,
          t.description,
          t.decisionResponseCode,
          t.postedTime ?? null,
        ],
      ),
    );
    return cardTransactionFromRow(row);
  }

  async find(executor: Executor, accountId: string, transactionId: string, options: { lock?: boolean } = {}): Promise<CardTransaction | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`SELECT * FROM card_transactions WHERE transaction_id = $1 AND account_id = $2${options.lock ? ' FOR UPDATE' : ''}`, [
        transactionId,
        accountId,
      ]),
    );
    return row ? cardTransactionFromRow(row) : undefined;
  }

  async findById(executor: Executor, transactionId: string, options: { lock?: boolean } = {}): Promise<CardTransaction | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`SELECT * FROM card_transactions WHERE transaction_id = $1${options.lock ? ' FOR UPDATE' : ''}`, [transactionId]),
    );
    return row ? cardTransactionFromRow(row) : undefined;
  }

  async list(
    executor: Executor,
    accountId: string,
    query: { cardId?: string; from?: Date; before?: Date; pageNumber: number; pageSize: number },
  ): Promise<{ items: CardTransaction[]; total: number }> {
    const where = `account_id = $1 AND ($2::uuid IS NULL OR card_id = $2) AND ($3::timestamptz IS NULL OR transaction_time >= $3)
      AND ($4::timestamptz IS NULL OR transaction_time <= $4)`;
    const params = [accountId, query.cardId ?? null, query.from ?? null, query.before ?? null];
    const rows = rowsOf<Record<string, unknown>>(
      await executor.query(
        `SELECT *, count(*) OVER () AS total FROM card_transactions WHERE ${where}
          ORDER BY transaction_time DESC, short_sequence DESC LIMIT $5 OFFSET $6`,
        [...params, query.pageSize, (query.pageNumber - 1) * query.pageSize],
      ),
    );
    let total = rows.length > 0 ? Number(rows[0].total) : 0;
    if (rows.length === 0 && query.pageNumber > 1) {
      const [count] = rowsOf<{ n: number }>(await executor.query(`SELECT count(*)::int AS n FROM card_transactions WHERE ${where}`, params));
      total = count.n;
    }
    return { items: rows.map(cardTransactionFromRow), total };
  }

  /** Moves a hold on only from the state the caller saw (the row is locked; the condition is the backstop). */
  async moveHold(executor: Executor, transactionId: string, from: HoldState, to: HoldState, posted: boolean): Promise<CardTransaction | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(
        `UPDATE card_transactions SET hold_state = $3, posted_time = CASE WHEN $4 THEN now() ELSE posted_time END
          WHERE transaction_id = $1 AND hold_state = $2 RETURNING *`,
        [transactionId, from, to, posted],
      ),
    );
    return row ? cardTransactionFromRow(row) : undefined;
  }

  /** What later transactions took from (or gave back to) an original one, by type. */
  async totalsAgainst(executor: Executor, originalId: string): Promise<Map<string, bigint>> {
    const rows = rowsOf<{ transaction_type: string; total: string }>(
      await executor.query(
        `SELECT transaction_type, sum(billing_amount_minor)::text AS total FROM card_transactions
          WHERE original_transaction_id = $1 AND transaction_status <> 'DECLINED' GROUP BY transaction_type`,
        [originalId],
      ),
    );
    return new Map(rows.map((row) => [row.transaction_type, BigInt(row.total)]));
  }

  /**
   * Approved, not reversed authorizations of a card inside each window (optionally only some MCCs): what the
   * spending controls and the card limit count. One statement for every window.
   */
  async spend(executor: Executor, cardId: string, windows: SpendWindows, categories?: string[]): Promise<WindowSpend> {
    const [row] = rowsOf<Record<string, string>>(
      await executor.query(
        `SELECT coalesce(sum(billing_amount_minor) FILTER (WHERE transaction_time >= $2), 0)::text AS day,
                coalesce(sum(billing_amount_minor) FILTER (WHERE transaction_time >= $3), 0)::text AS week,
                coalesce(sum(billing_amount_minor) FILTER (WHERE transaction_time >= $4), 0)::text AS month,
                coalesce(sum(billing_amount_minor) FILTER (WHERE transaction_time >= $5), 0)::text AS year,
                coalesce(sum(billing_amount_minor), 0)::text AS all_time
           FROM card_transactions
          WHERE card_id = $1 AND transaction_type = 'AUTHORIZATION' AND hold_state IN ('HELD', 'CLEARED')
            AND ($6::text[] IS NULL OR merchant_category_code = ANY($6))`,
        [cardId, windows.day, windows.week, windows.month, windows.year, categories ?? null],
      ),
    );
    return { day: BigInt(row.day), week: BigInt(row.week), month: BigInt(row.month), year: BigInt(row.year), allTime: BigInt(row.all_time) };
  }
}
