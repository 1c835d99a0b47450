import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IssuingLedgerAuditReport } from '@paygrid/contracts';
import { describeDiscrepancy, verifyLedger } from '@paygrid/ledger';
import { IssuingLedgerAuditRepository } from './issuing-ledger-audit.repository';

/**
 * The issuing ledger's audit, for `npm run paygrid -- ledger verify` (docs/ledger.md): the library's
 * checks (Σ = 0 per entry and currency, cache = Σ postings, running balances, nothing guarded negative)
 * and issuing's own (in-flight buckets = open money orders, each order's entries = its status, sandbox
 * funding never positive), all in one REPEATABLE READ snapshot so orders and postings are read together
 * while card orders keep finishing.
 */
@Injectable()
export class IssuingLedgerAuditService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: IssuingLedgerAuditRepository,
  ) {}

  report(): Promise<IssuingLedgerAuditReport> {
    return this.dataSource.transaction('REPEATABLE READ', async (executor) => {
      const discrepancies = (await verifyLedger(executor)).map(describeDiscrepancy);
      for (const mismatch of await this.audit.inFlightMismatches(executor)) {
        discrepancies.push(
          `${mismatch.ownerId}/${mismatch.currency}/${mismatch.bucket}: ledger holds ${mismatch.ledgerMinor}, open card orders sum to ${mismatch.expectedMinor}`,
        );
      }
      for (const order of await this.audit.ordersWithWrongEntries(executor)) {
        discrepancies.push(`card order ${order.orderId} (${order.orderType}, ${order.status}) has ${order.problems.join(', ')}`);
      }
      for (const funding of await this.audit.positiveFunding(executor)) {
        discrepancies.push(`${funding.ownerId}/${funding.currency}/sandbox_funding is positive (${funding.totalMinor}); it may only be zero or negative`);
      }
      const counts = await this.audit.counts(executor);
      return { discrepancies, ledger_accounts: counts.accounts, entries: counts.entries };
    });
  }
}
