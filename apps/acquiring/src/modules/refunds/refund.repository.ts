import { Injectable } from '@nestjs/common';
import { RefundStatus } from '@paygrid/contracts';
import { minorUnitsFromDb } from '@paygrid/money';
import { Executor, rowsOf } from '@paygrid/platform';
import { applyTransition } from '@paygrid/state-machine';
import { PageWindow } from '../../common/paging';
import { RefundEvent, refundMachine } from './refund.states';
import { Refund, RefundFilter } from './refund.types';

/** All SQL of refunds. */
interface RefundRow {
  refund_id: string;
  payment_intent_id: string;
  payment_attempt_id: string;
  account_id: string;
  master_account_id: string;
  amount_minor: string;
  currency: string;
  status: RefundStatus;
  reason: string;
  metadata: Record<string, string>;
  failure_code: string;
  processor_reference: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

function toRefund(row: RefundRow): Refund {
  return {
    id: row.refund_id,
    intentId: row.payment_intent_id,
    attemptId: row.payment_attempt_id,
    accountId: row.account_id,
    masterAccountId: row.master_account_id,
    amountMinor: minorUnitsFromDb(row.amount_minor),
    currency: row.currency,
    status: row.status,
    reason: row.reason,
    metadata: row.metadata ?? {},
    failureCode: row.failure_code,
    processorReference: row.processor_reference,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    completedAt: row.completed_at === null ? null : new Date(row.completed_at),
  };
}

@Injectable()
export class RefundRepository {
  async insert(executor: Executor, refund: Omit<Refund, 'status' | 'failureCode' | 'processorReference' | 'createdAt' | 'updatedAt' | 'completedAt'>): Promise<Refund> {
    const [row] = rowsOf<RefundRow>(
      await executor.query(
        `INSERT INTO refunds (refund_id, payment_intent_id, payment_attempt_id, account_id, master_account_id, amount_minor,
           currency, status, reason, metadata)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'INITIATED', $8, $9) RETURNING *`,
        [
          refund.id,
          refund.intentId,
          refund.attemptId,
          refund.accountId,
          refund.masterAccountId,
          refund.amountMinor.toString(),
          refund.currency,
          refund.reason,
          JSON.stringify(refund.metadata),
        ],
      ),
    );
    return toRefund(row);
  }

  async find(executor: Executor, id: string, accountId?: string): Promise<Refund | undefined> {
    const [row] = rowsOf<RefundRow>(
      await executor.query('SELECT * FROM refunds WHERE refund_id = $1 AND ($2::text IS NULL OR account_id = $2)', [
        id,
        accountId ?? null,
      ]),
    );
    return row ? toRefund(row) : undefined;
  }

  /** What is already promised back on an intent: every refund that has not failed. */
  async reservedMinor(executor: Executor, intentId: string): Promise<bigint> {
    const [row] = await executor.query(
      `SELECT coalesce(sum(amount_minor), 0)::text AS total FROM refunds WHERE payment_intent_id = $1 AND status <> 'FAILED'`,
      [intentId],
    );
    return minorUnitsFromDb(row.total);
  }

  async list(executor: Executor, filter: RefundFilter, window: PageWindow): Promise<{ total: number; items: Refund[] }> {
    const where = `r.account_id = $1 AND ($2::text IS NULL OR r.payment_intent_id = $2)
      AND ($3::text IS NULL OR i.merchant_order_id = $3)
      AND ($4::timestamptz IS NULL OR r.created_at >= $4) AND ($5::timestamptz IS NULL OR r.created_at <= $5)`;
    const params = [
      filter.accountId,
      filter.intentId ?? null,
      filter.merchantOrderId ?? null,
      filter.createdFrom ?? null,
      filter.createdTo ?? null,
    ];
    const from = 'refunds r JOIN payment_intents i ON i.payment_intent_id = r.payment_intent_id';
    const [{ total }] = await executor.query(`SELECT count(*)::int AS total FROM ${from} WHERE ${where}`, params);
    const rows = rowsOf<RefundRow>(
      await executor.query(
        `SELECT r.* FROM ${from} WHERE ${where} ORDER BY r.created_at DESC, r.refund_id DESC LIMIT $6 OFFSET $7`,
        [...params, window.limit, window.offset],
      ),
    );
    return { total, items: rows.map(toRefund) };
  }

  async transition(executor: Executor, id: string, event: RefundEvent, set: Record<string, unknown> = {}): Promise<Refund> {
    const row = await applyTransition(executor, refundMachine, {
      table: 'refunds',
      id,
      idColumn: 'refund_id',
      event,
      set: { ...set, updated_at: new Date() },
    });
    return toRefund(row as unknown as RefundRow);
  }
}
