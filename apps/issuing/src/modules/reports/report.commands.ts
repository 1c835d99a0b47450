import { Injectable } from '@nestjs/common';
import { CreateIssuingReportPayload, IssuingFundsCommand, IssuingReportRef } from '@paygrid/contracts';
import { CommandContext, HandleCommand, HandleJob, WriteContext } from '@paygrid/platform';
import { REPORT_JOB, ReportService } from './report.service';

/** Issuing report commands (thin), and the job that produces a report. */
@Injectable()
export class ReportCommands {
  constructor(private readonly reports: ReportService) {}

  @HandleCommand(IssuingFundsCommand.createReport)
  create(payload: CreateIssuingReportPayload, context: WriteContext) {
    return this.reports.create(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingFundsCommand.downloadReport)
  download(payload: IssuingReportRef, context: CommandContext) {
    return this.reports.download(context.requireActor(), payload.report_id);
  }

  @HandleJob(REPORT_JOB)
  produce(reportId: string): Promise<void> {
    return this.reports.produce(reportId);
  }
}
