import { Module } from '@nestjs/common';
import { LedgerAuditCommands } from './ledger-audit.commands';
import { LedgerAuditRepository } from './ledger-audit.repository';
import { LedgerAuditService } from './ledger-audit.service';

/** The audit of the payouts ledger (operators' CLI). */
@Module({
  providers: [LedgerAuditRepository, LedgerAuditService, LedgerAuditCommands],
})
export class LedgerAuditModule {}
