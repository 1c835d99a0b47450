import { Injectable } from '@nestjs/common';
import { Executor, rowsOf } from '@paygrid/platform';
import { Buckets } from './issuing-balances';
import { namedUuidSql } from './balance-transaction.types';

/**
 * All SQL of the balances API: reads of issuing's ledger tables (libs/ledger), which are the only record of the
 * money. A balance is the account's `available` bucket in one currency; what is accepted but not yet moved
 * (recharges, transfers out) is its frozen part.
 */
export interface BalanceRow {
  balanceId: string;
  currency: string;
  availableMinor: bigint;
  frozenMinor: bigint;
  createdAt: Date;
  lastTradeAt: Date;
}

export interface BalancePostingRow {
  transactionId: string;
  balanceId: string;
  currency: string;
  kind: string;
  amountMinor: bigint;
  balanceAfterMinor: bigint;
  occurredAt: Date;
  recordedAt: Date;
  metadata: Record<string, unknown>;
}

export interface BalancePostingFilter {
  currency?: string;
  from?: Date;
  before?: Date;
  movementKeys?: string[];
  transactionId?: string;
  pageNumber: number;
  pageSize: number;
}

const FROZEN_BUCKETS = [Buckets.rechargeInFlight, Buckets.transferInFlight];
const BALANCE_ID = namedUuidSql(`'issuing_balance:' || a.owner_id || ':' || a.currency`);
const TRANSACTION_ID = namedUuidSql(`e.reference || ':' || a.owner_id`);

function balanceFromRow(row: Record<string, unknown>): BalanceRow {
  return {
    balanceId: String(row.balance_id),
    currency: String(row.currency),
    availableMinor: BigInt(row.available as string),
    frozenMinor: BigInt(row.frozen as string),
    createdAt: row.created_at as Date,
    lastTradeAt: row.last_trade_at as Date,
  };
}

@Injectable()
export class BalancesRepository {
  /** The account's balances, one per currency it holds (in currency order), one statement. */
  async balances(
    executor: Executor,
    accountId: string,
    options: { currency?: string; pageNumber: number; pageSize: number },
  ): Promise<{ items: BalanceRow[]; total: number }> {
    const rows = rowsOf<Record<string, unknown>>(
      await executor.query(
        `SELECT count(*) OVER () AS total, min(${BALANCE_ID}::text) AS balance_id, a.currency,
                coalesce(sum(a.balance) FILTER (WHERE a.bucket = $2), 0)::text AS available,
                coalesce(sum(a.balance) FILTER (WHERE a.bucket <> $2), 0)::text AS frozen,
                min(a.created_at) FILTER (WHERE a.bucket = $2) AS created_at, max(a.updated_at) AS last_trade_at
           FROM ledger_accounts a
          WHERE a.owner_id = $1 AND a.bucket = ANY($3) AND ($4::text IS NULL OR a.currency = $4)
          GROUP BY a.currency
         HAVING bool_or(a.bucket = $2)
          ORDER BY a.currency
          LIMIT $5 OFFSET $6`,
        [
          accountId,
          Buckets.available,
          [Buckets.available, ...FROZEN_BUCKETS],
          options.currency ?? null,
          options.pageSize,
          (options.pageNumber - 1) * options.pageSize,
        ],
      ),
    );
    if (rows.length > 0 || options.pageNumber === 1) return { items: rows.map(balanceFromRow), total: rows.length > 0 ? Number(rows[0].total) : 0 };
    const [count] = rowsOf<{ total: string }>(
      await executor.query(`SELECT count(DISTINCT currency) AS total FROM ledger_accounts WHERE owner_id = $1 AND bucket = $2`, [accountId, Buckets.available]),
    );
    return { items: [], total: Number(count.total) };
  }

  /** The postings on the account's issuing balances, newest first, with the count of all that match. */
  async postings(executor: Executor, accountId: string, filter: BalancePostingFilter): Promise<{ items: BalancePostingRow[]; total: number }> {
    const matching = `FROM ledger_accounts a
        JOIN ledger_postings p ON p.ledger_account_id = a.id
        JOIN ledger_entries e ON e.id = p.entry_id
       WHERE a.owner_id = $1 AND a.bucket = $2 AND ($3::text IS NULL OR a.currency = $3)
         AND ($4::timestamptz IS NULL OR e.occurred_at >= $4) AND ($5::timestamptz IS NULL OR e.occurred_at < $5)
         AND ($6::text[] IS NULL OR e.kind || ':' || sign(p.amount)::int = ANY($6))
         AND ($7::uuid IS NULL OR ${TRANSACTION_ID} = $7)`;
    const params = [
      accountId,
      Buckets.available,
      filter.currency ?? null,
      filter.from ?? null,
      filter.before ?? null,
      filter.movementKeys ?? null,
      filter.transactionId ?? null,
    ];
    const rows = rowsOf<Record<string, unknown>>(
      await executor.query(
        `SELECT count(*) OVER () AS total, ${TRANSACTION_ID}::text AS transaction_id, ${BALANCE_ID}::text AS balance_id, a.currency,
                e.kind, p.amount::text AS amount, p.balance_after::text AS balance_after, e.occurred_at, e.recorded_at, e.metadata
           ${matching}
          ORDER BY e.occurred_at DESC, e.id DESC
          LIMIT $8 OFFSET $9`,
        [...params, filter.pageSize, (filter.pageNumber - 1) * filter.pageSize],
      ),
    );
    if (rows.length > 0 || filter.pageNumber === 1) return { items: rows.map(postingFromRow), total: rows.length > 0 ? Number(rows[0].total) : 0 };
    const [count] = rowsOf<{ total: string }>(await executor.query(`SELECT count(*) AS total ${matching}`, params));
    return { items: [], total: Number(count.total) };
  }
}

function postingFromRow(row: Record<string, unknown>): BalancePostingRow {
  return {
    transactionId: String(row.transaction_id),
    balanceId: String(row.balance_id),
    currency: String(row.currency),
    kind: String(row.kind),
    amountMinor: BigInt(row.amount as string),
    balanceAfterMinor: BigInt(row.balance_after as string),
    occurredAt: row.occurred_at as Date,
    recordedAt: row.recorded_at as Date,
    metadata: (row.metadata as Record<string, unknown>) ?? {},
  };
}
