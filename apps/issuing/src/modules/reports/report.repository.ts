import { Injectable } from '@nestjs/common';
import { IssuingReportStatus, IssuingReportType } from '@paygrid/contracts';
import { Executor, rowsOf } from '@paygrid/platform';
import { applyTransition } from '@paygrid/state-machine';
import { namedUuidSql } from '../balances/balance-transaction.types';
import { Buckets } from '../balances/issuing-balances';
import { reportMachine } from './report.states';
import { IssuingReport, SettlementLine } from './report.types';

/** All SQL of reports: their records, and the settled movements a SETTLEMENT report lists. */
const REPORT_COLUMNS = `report_id, account_id, master_account_id, report_type, report_status, range_start, range_end, row_count, file_name,
  failure_reason, created_at, completed_at`;

function reportFromRow(row: Record<string, unknown>): IssuingReport {
  return {
    reportId: row.report_id as string,
    accountId: row.account_id as string,
    masterAccountId: row.master_account_id as string,
    reportType: row.report_type as IssuingReportType,
    status: row.report_status as IssuingReportStatus,
    rangeStart: row.range_start as Date,
    rangeEnd: row.range_end as Date,
    rowCount: (row.row_count as number | null) ?? null,
    fileName: (row.file_name as string | null) ?? null,
    failureReason: (row.failure_reason as string | null) ?? null,
    createdAt: row.created_at as Date,
    completedAt: (row.completed_at as Date | null) ?? null,
  };
}

@Injectable()
export class ReportRepository {
  async insert(
    executor: Executor,
    report: Pick<IssuingReport, 'reportId' | 'accountId' | 'masterAccountId' | 'reportType' | 'rangeStart' | 'rangeEnd'>,
  ): Promise<IssuingReport> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(
        `INSERT INTO issuing_reports (report_id, account_id, master_account_id, report_type, report_status, range_start, range_end)
         VALUES ($1, $2, $3, $4, 'PENDING', $5, $6) RETURNING ${REPORT_COLUMNS}`,
        [report.reportId, report.accountId, report.masterAccountId, report.reportType, report.rangeStart, report.rangeEnd],
      ),
    );
    return reportFromRow(row);
  }

  async findById(executor: Executor, reportId: string, options: { lock?: boolean } = {}): Promise<IssuingReport | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`SELECT ${REPORT_COLUMNS} FROM issuing_reports WHERE report_id = $1${options.lock ? ' FOR UPDATE' : ''}`, [reportId]),
    );
    return row ? reportFromRow(row) : undefined;
  }

  /** The account's report with its file (undefined when it is another account's or missing). */
  async findFile(executor: Executor, accountId: string, reportId: string): Promise<{ report: IssuingReport; content: string | null } | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`SELECT ${REPORT_COLUMNS}, content FROM issuing_reports WHERE report_id = $1 AND account_id = $2`, [reportId, accountId]),
    );
    return row ? { report: reportFromRow(row), content: (row.content as string | null) ?? null } : undefined;
  }

  async succeed(executor: Executor, reportId: string, file: { fileName: string; content: string; rowCount: number }): Promise<IssuingReport> {
    return this.transition(executor, reportId, 'SUCCEED', {
      file_name: file.fileName,
      content: file.content,
      row_count: file.rowCount,
    });
  }

  async fail(executor: Executor, reportId: string, reason: string): Promise<IssuingReport> {
    return this.transition(executor, reportId, 'FAIL', { failure_reason: reason });
  }

  /**
   * Settled movements on the `available` buckets of the account and of its cards in [from, before), oldest
   * first, at most `limit`.
   */
  async settlementLines(executor: Executor, accountId: string, range: { from: Date; before: Date }, limit: number): Promise<SettlementLine[]> {
    const rows = rowsOf<Record<string, unknown>>(
      await executor.query(
        `SELECT ${namedUuidSql(`e.reference || ':' || a.owner_id`)}::text AS transaction_id, e.occurred_at, e.kind, a.owner_id, c.masked_number,
                a.currency, p.amount::text AS amount, p.balance_after::text AS balance_after
           FROM ledger_accounts a
           JOIN ledger_postings p ON p.ledger_account_id = a.id
           JOIN ledger_entries e ON e.id = p.entry_id
           LEFT JOIN cards c ON c.card_id::text = a.owner_id
          WHERE a.bucket = $2
            AND a.owner_id IN (SELECT $1::text UNION ALL SELECT card_id::text FROM cards WHERE account_id = $1::uuid)
            AND e.occurred_at >= $3 AND e.occurred_at < $4
          ORDER BY e.occurred_at, e.id, p.line
          LIMIT $5`,
        [accountId, Buckets.available, range.from, range.before, limit],
      ),
    );
    return rows.map((row) => ({
      transactionId: String(row.transaction_id),
      occurredAt: row.occurred_at as Date,
      kind: String(row.kind),
      ownerId: String(row.owner_id),
      maskedCardNumber: (row.masked_number as string | null) ?? null,
      currency: String(row.currency),
      amountMinor: BigInt(row.amount as string),
      balanceAfterMinor: BigInt(row.balance_after as string),
    }));
  }

  private async transition(executor: Executor, reportId: string, event: 'SUCCEED' | 'FAIL', set: Record<string, unknown>): Promise<IssuingReport> {
    const row = await applyTransition(executor, reportMachine, {
      table: 'issuing_reports',
      id: reportId,
      idColumn: 'report_id',
      statusColumn: 'report_status',
      event,
      set: { ...set, completed_at: new Date() },
    });
    return reportFromRow(row);
  }
}
