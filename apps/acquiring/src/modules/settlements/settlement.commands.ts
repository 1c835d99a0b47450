import { Injectable } from '@nestjs/common';
import { AcquiringAuditCommand, AcquiringCommand, ListSettlementsPayload } from '@paygrid/contracts';
import { CommandContext, HandleCommand } from '@paygrid/platform';
import { SettlementService } from './settlement.service';

/** The settlement commands: thin; the service reads. */
@Injectable()
export class SettlementCommands {
  constructor(private readonly settlements: SettlementService) {}

  @HandleCommand(AcquiringCommand.listSettlements)
  list(payload: ListSettlementsPayload, context: CommandContext) {
    return this.settlements.list(context.requireActor(), payload);
  }

  /** Operators only (no actor): every account's settled totals, for `paygrid ledger verify`. */
  @HandleCommand(AcquiringAuditCommand.settledTotals)
  totals() {
    return this.settlements.totals();
  }
}
