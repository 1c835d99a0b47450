import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import {
  Actor,
  CreateIssuingReportPayload,
  IssuingFundsEvents,
  IssuingReportCreatedView,
  IssuingReportFile,
  IssuingReportView,
} from '@paygrid/contracts';
import { uuidV4 } from '@paygrid/ids';
import { DurableJobs, envelopeA, LOGGER, runInTransaction, TransactionContext } from '@paygrid/platform';
import { recordIssuingEvent } from '../../common/issuing-events';
import { issuingAmountText, transactionTypeOf } from '../balances/balance-transaction.types';
import { BalancesRepository } from '../balances/balances.repository';
import { presentTransaction } from '../balances/balances.service';
import { csvNumber, toCsv } from './report-csv';
import { ReportRepository } from './report.repository';
import { IssuingReport } from './report.types';

/**
 * Issuing reports (wire-compat §11.11; docs/issuing.md, "Reports"): a request records the report PENDING and
 * schedules the `issuing_report` durable job in its transaction; the job reads the ledger for the range, stores
 * the CSV in the issuing database, marks the report SUCCEEDED and announces `issuing.report.succeeded`, all in
 * one transaction (a repeated run finds it no longer PENDING and does nothing). A range holding more lines than
 * one file takes fails the report, saying so, rather than cutting it short.
 */
export const REPORT_JOB = 'issuing_report';
export const REPORT_MAX_LINES = 100_000;

export const ReportErrors = {
  notFound: () => envelopeA('invalid_request_error', 'resource_not_found', 'Issuing report not found'),
  notReady: () => envelopeA('invalid_request_error', 'report_not_ready', 'The report is still being produced; download it after issuing.report.succeeded'),
  failed: (reason: string) => envelopeA('invalid_request_error', 'report_failed', `The report could not be produced: ${reason}`),
};

const SETTLEMENT_HEADER = ['settlement_time', 'transaction_id', 'transaction_type', 'owner', 'card_number', 'currency', 'amount', 'ending_balance'];
const TRANSACTION_HEADER = [
  'create_time',
  'transaction_id',
  'short_transaction_id',
  'transaction_type',
  'transaction_status',
  'currency',
  'amount',
  'ending_balance',
  'description',
];

@Injectable()
export class ReportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reports: ReportRepository,
    private readonly balances: BalancesRepository,
    private readonly jobs: DurableJobs,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async create(tx: TransactionContext, actor: Actor, payload: CreateIssuingReportPayload): Promise<IssuingReportCreatedView> {
    const report = await this.reports.insert(tx.manager, {
      reportId: uuidV4(),
      accountId: actor.account_id,
      masterAccountId: actor.master_account_id,
      reportType: payload.report_type,
      rangeStart: new Date(payload.start_time),
      rangeEnd: new Date(payload.end_time),
    });
    await this.jobs.schedule(tx, { kind: REPORT_JOB, subjectId: report.reportId, dueAt: new Date() });
    return { report_id: report.reportId };
  }

  async download(actor: Actor, reportId: string): Promise<IssuingReportFile> {
    const found = await this.reports.findFile(this.dataSource, actor.account_id, reportId);
    if (!found) throw ReportErrors.notFound();
    const { report, content } = found;
    if (report.status === 'FAILED') throw ReportErrors.failed(report.failureReason ?? 'unknown');
    if (report.status !== 'SUCCEEDED' || content === null || report.fileName === null) throw ReportErrors.notReady();
    return { report_id: report.reportId, file_name: report.fileName, content_type: 'text/csv', content };
  }

  /** The `issuing_report` job. */
  async produce(reportId: string): Promise<void> {
    await runInTransaction(this.dataSource, this.logger, async (tx) => {
      const report = await this.reports.findById(tx.manager, reportId, { lock: true });
      if (!report || report.status !== 'PENDING') return;
      const file = await this.render(tx, report);
      const finished =
        file.rowCount > REPORT_MAX_LINES
          ? await this.reports.fail(tx.manager, reportId, `more than ${REPORT_MAX_LINES} lines: ask for a shorter range`)
          : await this.reports.succeed(tx.manager, reportId, { ...file, fileName: fileNameOf(report) });
      if (finished.status === 'SUCCEEDED') {
        await recordIssuingEvent(tx.manager, report, IssuingFundsEvents.reportSucceeded, reportId, presentReport(finished));
      }
    });
  }

  /** The CSV of the report; `rowCount` above REPORT_MAX_LINES means the range is too large. */
  private async render(tx: TransactionContext, report: IssuingReport): Promise<{ content: string; rowCount: number }> {
    const range = { from: report.rangeStart, before: report.rangeEnd };
    if (report.reportType === 'SETTLEMENT') {
      const lines = await this.reports.settlementLines(tx.manager, report.accountId, range, REPORT_MAX_LINES + 1);
      const rows = lines.map((line) => [
        line.occurredAt.toISOString(),
        line.transactionId,
        transactionTypeOf(line.kind, line.amountMinor),
        line.maskedCardNumber === null ? 'ISSUING_BALANCE' : `CARD ${line.ownerId}`,
        line.maskedCardNumber,
        line.currency,
        csvNumber(issuingAmountText(line.amountMinor)),
        csvNumber(issuingAmountText(line.balanceAfterMinor)),
      ]);
      return { content: toCsv(SETTLEMENT_HEADER, rows), rowCount: rows.length };
    }
    const { items } = await this.balances.postings(tx.manager, report.accountId, {
      from: range.from,
      before: range.before,
      pageNumber: 1,
      pageSize: REPORT_MAX_LINES + 1,
    });
    // The listing is newest first; a file reads oldest first.
    const rows = [...items].reverse().map((posting) => {
      const view = presentTransaction(report.accountId, posting);
      return [
        view.create_time,
        view.transaction_id,
        view.short_transaction_id,
        view.transaction_type,
        view.transaction_status,
        view.currency,
        csvNumber(issuingAmountText(posting.amountMinor)),
        csvNumber(issuingAmountText(posting.balanceAfterMinor)),
        view.description ?? null,
      ];
    });
    return { content: toCsv(TRANSACTION_HEADER, rows), rowCount: rows.length };
  }
}

function fileNameOf(report: IssuingReport): string {
  const day = (date: Date) => date.toISOString().slice(0, 10).replace(/-/g, '');
  return `issuing-${report.reportType.toLowerCase()}-${day(report.rangeStart)}-${day(report.rangeEnd)}-${report.reportId.slice(0, 8)}.csv`;
}

export function presentReport(report: IssuingReport): IssuingReportView {
  return {
    report_id: report.reportId,
    report_type: report.reportType,
    report_status: report.status,
    start_time: report.rangeStart.toISOString(),
    end_time: report.rangeEnd.toISOString(),
    create_time: report.createdAt.toISOString(),
    ...(report.completedAt ? { complete_time: report.completedAt.toISOString() } : {}),
    ...(report.rowCount !== null ? { row_count: report.rowCount } : {}),
    ...(report.fileName !== null ? { file_name: report.fileName } : {}),
    download_path: `/v1/issuing/reports/${report.reportId}`,
  };
}
