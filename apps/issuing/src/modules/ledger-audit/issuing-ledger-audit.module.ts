import { Module } from '@nestjs/common';
import { IssuingLedgerAuditCommands } from './issuing-ledger-audit.commands';
import { IssuingLedgerAuditRepository } from './issuing-ledger-audit.repository';
import { IssuingLedgerAuditService } from './issuing-ledger-audit.service';

/** The audit of the issuing ledger (operators' CLI: `paygrid ledger verify`). */
@Module({
  providers: [IssuingLedgerAuditRepository, IssuingLedgerAuditService, IssuingLedgerAuditCommands],
})
export class IssuingLedgerAuditModule {}
