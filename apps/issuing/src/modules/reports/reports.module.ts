import { Module } from '@nestjs/common';
import { BalancesApiModule } from '../balances/balances-api.module';
import { ReportCommands } from './report.commands';
import { ReportRepository } from './report.repository';
import { ReportService } from './report.service';

/** CSV reports of the issuing money, produced by a durable job. */
@Module({
  imports: [BalancesApiModule],
  providers: [ReportRepository, ReportService, ReportCommands],
})
export class ReportsModule {}
