import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LedgerAuditReport } from '@paygrid/contracts';
import { describeDiscrepancy, verifyLedger } from '@paygrid/ledger';
import { LedgerAuditRepository } from './ledger-audit.repository';

/**
 * The ledger's own audit, for `npm run paygrid -- ledger verify` (issue 9: invariants checked by code):
 * the library's checks (Σ = 0 per entry, cache = Σ postings, running balances, nothing guarded negative)
 * plus this service's (payout statuses agree with the payout buckets, every payout was reserved, the
 * network and advance counterparts never positive), all in one snapshot. It also answers the balances
 * recomputed from the postings and the settled totals, which the CLI compares with what the API shows
 * and with acquiring's settlements.
 */
@Injectable()
export class LedgerAuditService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: LedgerAuditRepository,
  ) {}

  async report(): Promise<LedgerAuditReport> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction('REPEATABLE READ');
      const executor = runner.manager;
      const discrepancies = (await verifyLedger(executor)).map(describeDiscrepancy);
      for (const mismatch of await this.audit.payoutBucketMismatches(executor)) {
        discrepancies.push(
          `${mismatch.ownerId}/${mismatch.currency}/${mismatch.bucket}: ledger holds ${mismatch.ledgerMinor}, payouts in that status sum to ${mismatch.expectedMinor}`,
        );
      }
      for (const payoutId of await this.audit.payoutsWithoutReserve(executor)) {
        discrepancies.push(`payout ${payoutId} has no reserve entry`);
      }
      for (const counterpart of await this.audit.positiveCounterparts(executor)) {
        discrepancies.push(`${counterpart.ownerId}/${counterpart.currency}/${counterpart.bucket} is positive (${counterpart.totalMinor}); it may only be zero or negative`);
      }
      const accounts = await this.audit.recomputedAccounts(executor);
      await runner.commitTransaction();
      return {
        discrepancies,
        accounts: accounts.map((account) => ({
          account_id: account.accountId,
          master_account_id: account.masterAccountId,
          currency: account.currency,
          available_minor: account.availableMinor.toString(),
          pending_minor: account.pendingMinor.toString(),
          settled_minor: account.settledMinor.toString(),
          settlement_count: account.settlementCount,
        })),
      };
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }
}
