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

interface InsertedRow {
  settlement_batch_id: string;
  created_at: Date;
}

/** $1 settlement id, $2 a new batch's id, $3 settlement date, then the settlement's columns. */
const INSERT_IN_BATCH = `
  WITH new_batch AS (
    INSERT INTO settlement_batches (settlement_batch_id, account_id, currency, settlement_date)
    VALUES ($2, $6, $8, $3::date) ON CONFLICT (account_id, currency, settlement_date) DO NOTHING
    RETURNING settlement_batch_id
  ), batch AS (
    SELECT settlement_batch_id FROM new_batch
    UNION ALL
    SELECT settlement_batch_id FROM settlement_batches WHERE account_id = $6 AND currency = $8 AND settlement_date = $3::date
    LIMIT 1
  )
  INSERT INTO settlements (settlement_id, settlement_batch_id, payment_intent_id, payment_attempt_id, account_id,
    master_account_id, currency, amount_minor, fee_minor, net_minor, status, settled_at)
  SELECT $1, batch.settlement_batch_id, $4, $5, $6, $7, $8, $9::bigint, $10::bigint, $11::bigint, 'SUCCEEDED', $12::timestamptz
    FROM batch
  ON CONFLICT (payment_attempt_id) DO NOTHING
  RETURNING settlement_batch_id, created_at`;

const SELECT = `SELECT s.*, i.merchant_order_id FROM settlements s
  JOIN payment_intents i ON i.payment_intent_id = s.payment_intent_id`;

@Injectable()
export class SettlementRepository {
  /**
   * Records the settlement of one attempt in its account's batch for the currency and (UTC) settlement
   * day, creating the batch with the day's first settlement: one statement, nothing read back (the
   * caller knows every field but the batch id and created_at, which it returns). One settlement per
   * attempt: a second run of the job inserts nothing and gets undefined.
   *
   * The batch CTE reads the statement's snapshot, so a batch another transaction committed while this
   * statement waited on it is not seen and nothing is inserted: the statement is then run once more,
   * with a fresh snapshot that sees that batch (and still finds a settlement that already exists).
   */
  async insert(executor: Executor, settlement: Omit<Settlement, 'batchId' | 'createdAt'>): Promise<Settlement | undefined> {
    const params = [
      settlement.id,
      newId('stb'),
      settlement.settledAt.toISOString().slice(0, 10),
      settlement.intentId,
      settlement.attemptId,
      settlement.accountId,
      settlement.masterAccountId,
      settlement.currency,
      settlement.amountMinor.toString(),
      settlement.feeMinor.toString(),
      settlement.netMinor.toString(),
      settlement.settledAt,
    ];
    const inserted =
      rowsOf<InsertedRow>(await executor.query(INSERT_IN_BATCH, params))[0] ??
      rowsOf<InsertedRow>(await executor.query(INSERT_IN_BATCH, params))[0];
    if (!inserted) return undefined;
    return { ...settlement, batchId: inserted.settlement_batch_id, createdAt: new Date(inserted.created_at) };
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
