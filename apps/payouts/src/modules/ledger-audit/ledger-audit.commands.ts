import { Injectable } from '@nestjs/common';
import { PayoutCommand } from '@paygrid/contracts';
import { HandleCommand } from '@paygrid/platform';
import { LedgerAuditService } from './ledger-audit.service';

/** Operators only (no actor): the ledger audit behind `paygrid ledger verify`. */
@Injectable()
export class LedgerAuditCommands {
  constructor(private readonly audit: LedgerAuditService) {}

  @HandleCommand(PayoutCommand.verifyLedger)
  verify() {
    return this.audit.report();
  }
}
