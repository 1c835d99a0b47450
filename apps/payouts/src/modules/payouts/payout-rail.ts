import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import { LOGGER, runInTransaction, TransactionContext } from '@paygrid/platform';
import { PAYOUTS_CONFIG, PayoutsConfig } from '../../config';
import { MerchantLedger } from '../balances/merchant-ledger';
import {
  Movement,
  payoutCompletedEntry,
  payoutFailedEntry,
  payoutInTransitEntry,
  payoutRefundedEntry,
} from '../balances/posting-rules';
import { announcePayout } from './payout.events';
import { PayoutRepository } from './payout.repository';
import { Payout } from './payout.types';
import { nextRailStep, RailDelays } from './sandbox-bank-rail';

/**
 * Moves payouts along the sandbox bank rail. Each step is one transaction: the status's conditional
 * update, its ledger entry and its event, so a step happens exactly once and is announced exactly once.
 *
 * The timer is the payout row's `next_step_at` (Postgres is the record; a restart loses nothing and
 * picks up whatever fell due while it was down). INTERIM: this is the small timer issue 9 allows until
 * the platform's durable jobs module (SKELETON.md §5, `DurableJobs`/`@HandleJob`) lands on main; then
 * each step becomes a scheduled job of kind `payout_step` and `advanceDue`'s poll goes away.
 */
@Injectable()
export class PayoutRail {
  private readonly delays: RailDelays;

  constructor(
    private readonly dataSource: DataSource,
    private readonly payouts: PayoutRepository,
    private readonly ledger: MerchantLedger,
    @Inject(PAYOUTS_CONFIG) config: PayoutsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.delays = { processingMs: config.PAYOUT_PROCESSING_DELAY_MS, settleMs: config.PAYOUT_SETTLE_DELAY_MS, refundMs: config.PAYOUT_REFUND_DELAY_MS };
  }

  /** Takes every step that is due, one payout per transaction; returns how many it took. */
  async advanceDue(): Promise<number> {
    let taken = 0;
    while (await runInTransaction(this.dataSource, this.logger, (tx) => this.advanceOne(tx))) taken += 1;
    return taken;
  }

  private async advanceOne(tx: TransactionContext): Promise<boolean> {
    const payout = await this.payouts.claimDue(tx.manager);
    if (!payout) return false;
    const step = nextRailStep(payout.status, payout.amountMinor, payout.currency, this.delays);
    if (!step) throw new Error(`payout ${payout.id} is ${payout.status} but has a next step due`);
    const movement = (suffix: string, kind: string): Movement => ({
      reference: `payout:${payout.id}:${suffix}`,
      kind,
      merchantId: payout.accountId,
      currency: payout.currency,
      metadata: { payout_id: payout.id },
    });
    const amount = payout.amountMinor;
    switch (step.event) {
      case 'PROCESS':
        await this.ledger.post(tx.manager, payoutInTransitEntry(movement('processing', 'payout.in_transit'), amount));
        break;
      case 'COMPLETE':
        await this.ledger.post(tx.manager, payoutCompletedEntry(movement('completed', 'payout.completed'), amount, payout.destination));
        break;
      case 'FAIL':
        await this.ledger.post(tx.manager, payoutFailedEntry(movement('failed', 'payout.failed'), amount));
        break;
      case 'REFUND': {
        const funds = await this.ledger.lockFunds(tx.manager, payout.accountId, payout.currency);
        await this.ledger.post(tx.manager, payoutRefundedEntry(movement('refunded', 'payout.refunded'), amount, funds));
        break;
      }
    }
    const moved: Payout = await this.payouts.transition(tx.manager, payout.id, step.event, {
      nextStepAt: step.nextInMs === null ? null : new Date(Date.now() + step.nextInMs),
      failureReason: step.failureReason,
      completed: step.event === 'COMPLETE',
    });
    await announcePayout(tx.manager, moved);
    return true;
  }
}
