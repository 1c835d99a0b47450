import { Injectable } from '@nestjs/common';
import { minorUnitsFromDb } from '@paygrid/money';
import { Executor, rowsOf } from '@paygrid/platform';
import { newId } from '@paygrid/ids';
import { PageWindow } from '../../common/paging';
import { Settlement, SettlementFilter } from './settlement.types';

/** All SQL of settlement batches and settlements. */
interface SettlementRow {
  settlement_id: string;
  settlement_batch_id: string;
  payment_intent_id: string;
  payment_attempt_id: string;
  merchant_order_id: string;
  account_id: string;
  master_account_id: string;
  currency: string;
  amount_minor: string;
  fee_minor: string;
  net_minor: string;
  settled_at: Date;
  created_at: Date;
}

function toSettlement(row: SettlementRow): Settlement {
  return {
    id: row.settlement_id,
    batchId: row.settlement_batch_id,
    intentId: row.payment_intent_id,
    attemptId: row.payment_attempt_id,
    merchantOrderId: row.merchant_order_id,
    accountId: row.account_id,
    masterAccountId: row.master_account_id,
    currency: row.currency,
    amountMinor: minorUnitsFromDb(row.amount_minor),
    feeMinor: minorUnitsFromDb(row.fee_minor),
    netMinor: minorUnitsFromDb(row.net_minor),
    settledAt: new Date(row.settled_at),
    createdAt: new Date(row.created_at),
  };
}

const SELECT = `SELECT s.*, i.merchant_order_id FROM settlements s
  JOIN payment_intents i ON i.payment_intent_id = s.payment_intent_id`;

@Injectable()
export class SettlementRepository {
  /** The batch of one account's captures in one currency on one (UTC) settlement day. */
  async batchFor(executor: Executor, accountId: string, currency: string, settledAt: Date): Promise<string> {
    const day = settledAt.toISOString().slice(0, 10);
    await executor.query(
      `INSERT INTO settlement_batches (settlement_batch_id, account_id, currency, settlement_date)
       VALUES ($1, $2, $3, $4) ON CONFLICT (account_id, currency, settlement_date) DO NOTHING`,
      [newId('stb'), accountId, currency, day],
    );
    const [row] = await executor.query(
      'SELECT settlement_batch_id FROM settlement_batches WHERE account_id = $1 AND currency = $2 AND settlement_date = $3',
      [accountId, currency, day],
    );
    return row.settlement_batch_id;
  }

  /** One settlement per attempt: a second run of the job inserts nothing and gets undefined. */
  async insert(
    executor: Executor,
    settlement: Omit<Settlement, 'merchantOrderId' | 'createdAt'>,
  ): Promise<Settlement | undefined> {
    const inserted = rowsOf<{ settlement_id: string }>(
      await executor.query(
        `INSERT INTO settlements (settlement_id, settlement_batch_id, payment_intent_id, payment_attempt_id, account_id,
           master_account_id, currency, amount_minor, fee_minor, net_minor, status, settled_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'SUCCEEDED', $11)
         ON CONFLICT (payment_attempt_id) DO NOTHING RETURNING settlement_id`,
        [
          settlement.id,
          settlement.batchId,
          settlement.intentId,
          settlement.attemptId,
          settlement.accountId,
          settlement.masterAccountId,
          settlement.currency,
          settlement.amountMinor.toString(),
          settlement.feeMinor.toString(),
          settlement.netMinor.toString(),
          settlement.settledAt,
        ],
      ),
    );
    if (!inserted[0]) return undefined;
    const [row] = rowsOf<SettlementRow>(await executor.query(`${SELECT} WHERE s.settlement_id = $1`, [settlement.id]));
    return toSettlement(row);
  }

  /** Only successful settlements are ever listed (spec 4.10). */
  /** Succeeded settlements per account and currency, over every account (the operators' ledger check). */
  async totals(executor: Executor): Promise<{ accountId: string; currency: string; count: number; grossMinor: bigint }[]> {
    const rows = rowsOf<{ account_id: string; currency: string; n: number; gross: string }>(
      await executor.query(
        `SELECT account_id, currency, count(*)::int AS n, sum(amount_minor)::text AS gross
           FROM settlements WHERE status = 'SUCCEEDED' GROUP BY account_id, currency ORDER BY account_id, currency`,
      ),
    );
    return rows.map((row) => ({ accountId: row.account_id, currency: row.currency, count: row.n, grossMinor: BigInt(row.gross) }));
  }

  async list(executor: Executor, filter: SettlementFilter, window: PageWindow): Promise<{ total: number; items: Settlement[] }> {
    const where = `s.status = 'SUCCEEDED' AND s.account_id = $1
      AND ($2::text IS NULL OR s.payment_intent_id = $2) AND ($3::text IS NULL OR s.settlement_batch_id = $3)
      AND ($4::timestamptz IS NULL OR s.settled_at >= $4) AND ($5::timestamptz IS NULL OR s.settled_at <= $5)`;
    const params = [
      filter.accountId,
      filter.intentId ?? null,
      filter.batchId ?? null,
      filter.settledFrom ?? null,
      filter.settledTo ?? null,
    ];
    const [{ total }] = await executor.query(`SELECT count(*)::int AS total FROM settlements s WHERE ${where}`, params);
    const rows = rowsOf<SettlementRow>(
      await executor.query(`${SELECT} WHERE ${where} ORDER BY s.settled_at DESC, s.settlement_id DESC LIMIT $6 OFFSET $7`, [
        ...params,
        window.limit,
        window.offset,
      ]),
    );
    return { total, items: rows.map(toSettlement) };
  }
}
