import { Injectable } from '@nestjs/common';
import { IssuingLedgerAuditCommand } from '@paygrid/contracts';
import { HandleCommand } from '@paygrid/platform';
import { IssuingLedgerAuditService } from './issuing-ledger-audit.service';

/** Operators only (no actor): the issuing half of `paygrid ledger verify`. */
@Injectable()
export class IssuingLedgerAuditCommands {
  constructor(private readonly audit: IssuingLedgerAuditService) {}

  @HandleCommand(IssuingLedgerAuditCommand.verifyLedger)
  verify() {
    return this.audit.report();
  }
}
