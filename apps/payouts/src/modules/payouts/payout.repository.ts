import { Injectable } from '@nestjs/common';
import { Executor, rowsOf } from '@paygrid/platform';
import { applyTransition } from '@paygrid/state-machine';
import { PageWindow } from '../../common/paging';
import { payoutStates, PayoutTransition } from './payout.states';
import { Payout, PayoutFilter, PayoutRow, toPayout } from './payout.types';

/** All SQL of payouts. Merchant reads are scoped to the owning account. */
@Injectable()
export class PayoutRepository {
  async insert(executor: Executor, payout: Omit<Payout, 'createdAt' | 'updatedAt' | 'completedAt' | 'failureReason'>): Promise<Payout> {
    const [row] = rowsOf<PayoutRow>(
      await executor.query(
        `INSERT INTO payouts (payout_id, account_id, master_account_id, currency, amount_minor, statement_descriptor,
           internal_note, destination, bank_account_id, payout_account_id, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         RETURNING *`,
        [
          payout.id,
          payout.accountId,
          payout.masterAccountId,
          payout.currency,
          payout.amountMinor.toString(),
          payout.statementDescriptor,
          payout.internalNote,
          payout.destination,
          payout.bankAccountId,
          payout.payoutAccountId,
          payout.status,
        ],
      ),
    );
    return toPayout(row);
  }

  async find(executor: Executor, accountId: string, id: string): Promise<Payout | undefined> {
    const [row] = rowsOf<PayoutRow>(
      await executor.query('SELECT * FROM payouts WHERE payout_id = $1 AND account_id = $2', [id, accountId]),
    );
    return row ? toPayout(row) : undefined;
  }

  async list(executor: Executor, filter: PayoutFilter, window: PageWindow): Promise<{ total: number; items: Payout[] }> {
    const where = `account_id = $1 AND ($2::text IS NULL OR status = $2)
      AND ($3::timestamptz IS NULL OR created_at >= $3) AND ($4::timestamptz IS NULL OR created_at <= $4)`;
    const params = [filter.accountId, filter.status ?? null, filter.createdFrom ?? null, filter.createdTo ?? null];
    const [{ total }] = await executor.query(`SELECT count(*)::int AS total FROM payouts WHERE ${where}`, params);
    const rows = rowsOf<PayoutRow>(
      await executor.query(`SELECT * FROM payouts WHERE ${where} ORDER BY created_at DESC, payout_id DESC LIMIT $5 OFFSET $6`, [
        ...params,
        window.limit,
        window.offset,
      ]),
    );
    return { total, items: rows.map(toPayout) };
  }

  /** Any account's payout (the bank rail acts for the platform, not for a merchant). */
  async findById(executor: Executor, id: string): Promise<Payout | undefined> {
    const [row] = rowsOf<PayoutRow>(await executor.query('SELECT * FROM payouts WHERE payout_id = $1', [id]));
    return row ? toPayout(row) : undefined;
  }

  /** A conditional status write (the state table), with the columns that change with it. */
  async transition(
    executor: Executor,
    id: string,
    event: PayoutTransition,
    set: { failureReason?: string; completed?: boolean },
  ): Promise<Payout> {
    const row = await applyTransition<string, PayoutTransition, PayoutRow & Record<string, unknown>>(executor, payoutStates, {
      table: 'payouts',
      idColumn: 'payout_id',
      id,
      event,
      set: {
        failure_reason: set.failureReason,
        completed_at: set.completed ? new Date() : undefined,
        updated_at: new Date(),
      },
    });
    return toPayout(row);
  }
}
