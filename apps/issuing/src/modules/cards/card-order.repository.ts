import { Injectable } from '@nestjs/common';
import { CardCurrency, CardOrderStatus, CardOrderType } from '@paygrid/contracts';
import { Executor, rowsOf } from '@paygrid/platform';
import { applyTransition } from '@paygrid/state-machine';
import { cardOrderMachine } from './card-order.states';

/** All SQL of card orders. */
export interface CardOrder {
  cardOrderId: string;
  cardId: string;
  accountId: string;
  orderType: CardOrderType;
  status: CardOrderStatus;
  amountMinor: bigint;
  currency: CardCurrency;
  details: Record<string, unknown>;
  failureReason: string | null;
  effectiveUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

function orderFromRow(row: Record<string, unknown>): CardOrder {
  return {
    cardOrderId: row.card_order_id as string,
    cardId: row.card_id as string,
    accountId: row.account_id as string,
    orderType: row.order_type as CardOrderType,
    status: row.order_status as CardOrderStatus,
    amountMinor: BigInt(row.amount_minor as string),
    currency: row.currency as CardCurrency,
    details: row.details as Record<string, unknown>,
    failureReason: (row.failure_reason as string | null) ?? null,
    effectiveUntil: (row.effective_until as Date | null) ?? null,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
    completedAt: (row.completed_at as Date | null) ?? null,
  };
}

export type NewCardOrder = Pick<CardOrder, 'cardOrderId' | 'cardId' | 'accountId' | 'orderType' | 'status' | 'amountMinor' | 'currency'> & {
  details?: Record<string, unknown>;
};

@Injectable()
export class CardOrderRepository {
  async insert(executor: Executor, order: NewCardOrder): Promise<CardOrder> {
    const final = order.status === 'SUCCESS' || order.status === 'FAILED';
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(
        `INSERT INTO card_orders (card_order_id, card_id, account_id, order_type, order_status, amount_minor, currency, details, completed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, ${final ? 'now()' : 'NULL'}) RETURNING *`,
        [
          order.cardOrderId,
          order.cardId,
          order.accountId,
          order.orderType,
          order.status,
          String(order.amountMinor),
          order.currency,
          JSON.stringify(order.details ?? {}),
        ],
      ),
    );
    return orderFromRow(row);
  }

  async find(executor: Executor, accountId: string, cardOrderId: string): Promise<CardOrder | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`SELECT * FROM card_orders WHERE card_order_id = $1 AND account_id = $2`, [cardOrderId, accountId]),
    );
    return row ? orderFromRow(row) : undefined;
  }

  async findById(executor: Executor, cardOrderId: string, options: { lock?: boolean } = {}): Promise<CardOrder | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`SELECT * FROM card_orders WHERE card_order_id = $1${options.lock ? ' FOR UPDATE' : ''}`, [cardOrderId]),
    );
    return row ? orderFromRow(row) : undefined;
  }

  async transition(
    executor: Executor,
    cardOrderId: string,
    event: (typeof cardOrderMachine.events)[number],
    set: Record<string, unknown> = {},
  ): Promise<CardOrder> {
    const final = event !== 'START';
    const row = await applyTransition(executor, cardOrderMachine, {
      table: 'card_orders',
      id: cardOrderId,
      idColumn: 'card_order_id',
      statusColumn: 'order_status',
      event,
      set: { ...set, updated_at: new Date(), ...(final ? { completed_at: new Date() } : {}) },
    });
    return orderFromRow(row);
  }

  /** A limit elevation that is processing or still in effect (spec 3: one per card). */
  async elevationInEffect(executor: Executor, cardId: string): Promise<boolean> {
    const rows = await executor.query(
      `SELECT 1 FROM card_orders WHERE card_id = $1 AND order_type = 'CARD_ELEVATE_LIMIT'
          AND (order_status IN ('PENDING', 'PROCESSING') OR (order_status = 'SUCCESS' AND effective_until > now())) LIMIT 1`,
      [cardId],
    );
    return rowsOf(rows).length > 0;
  }
}
