import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import { PayoutStatus } from '@paygrid/contracts';
import { NewLedgerEntry } from '@paygrid/ledger';
import { DurableJobs, LOGGER, runInTransaction, TransactionContext } from '@paygrid/platform';
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
import { PayoutTransition } from './payout.states';
import { Payout } from './payout.types';
import { nextRailStep, RailDelays } from './sandbox-bank-rail';

/**
 * The durable job that takes a payout out of each open status (docs/platform.md, "Durable jobs"). Job
 * kinds are stored in Postgres and Redis: never rename one (the upgrade migration spells them out too).
 */
export const PAYOUT_STEP_JOBS = {
  INITIATED: 'payout_process',
  PROCESSING: 'payout_settle',
  FAILED: 'payout_refund',
} as const satisfies Partial<Record<PayoutStatus, string>>;

type OpenStatus = keyof typeof PAYOUT_STEP_JOBS;

const isOpen = (status: PayoutStatus): status is OpenStatus => status in PAYOUT_STEP_JOBS;

/**
 * Moves payouts along the sandbox bank rail. Each step is one durable job run, and one transaction:
 * the status's conditional update, its ledger entry, its event, and the job of the next step, so a
 * step happens exactly once, is announced exactly once, and the next one exists if and only if it
 * committed. A run may repeat (a worker killed after its commit, before the job was recorded done):
 * the step re-reads the payout and does nothing unless it is still in the status the job takes it
 * out of. Postgres holds every due step, so a restart or a Redis that lost its queue loses nothing.
 */
@Injectable()
export class PayoutRail {
  private readonly delays: RailDelays;

  constructor(
    private readonly dataSource: DataSource,
    private readonly payouts: PayoutRepository,
    private readonly ledger: MerchantLedger,
    private readonly jobs: DurableJobs,
    @Inject(PAYOUTS_CONFIG) config: PayoutsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.delays = { processingMs: config.PAYOUT_PROCESSING_DELAY_MS, settleMs: config.PAYOUT_SETTLE_DELAY_MS, refundMs: config.PAYOUT_REFUND_DELAY_MS };
  }

  /** Called in the transaction that creates the payout: its first step, after the processing delay. */
  scheduleFirstStep(tx: TransactionContext, payoutId: string): Promise<void> {
    return this.scheduleStep(tx, payoutId, 'INITIATED', this.delays.processingMs);
  }

  /** Takes the payout out of `from` (the status its job was scheduled for); nothing if it already left. */
  async advance(payoutId: string, from: OpenStatus): Promise<void> {
    await runInTransaction(this.dataSource, this.logger, (tx) => this.advanceIn(tx, payoutId, from));
  }

  private async advanceIn(tx: TransactionContext, payoutId: string, from: OpenStatus): Promise<void> {
    const payout = await this.payouts.findById(tx.manager, payoutId);
    if (!payout) throw new Error(`payout ${payoutId} has a bank rail step but no row`);
    if (payout.status !== from) {
      this.logger.info({ payout_id: payoutId, status: payout.status, job_status: from }, 'payout step already taken; nothing to do');
      return;
    }
    const step = nextRailStep(payout.status, payout.amountMinor, payout.currency, this.delays);
    if (!step) throw new Error(`payout ${payout.id} is ${payout.status} but has a next step`);
    await this.ledger.post(tx.manager, await this.entryOf(tx, payout, step.event));
    const moved: Payout = await this.payouts.transition(tx.manager, payout.id, step.event, {
      failureReason: step.failureReason,
      completed: step.event === 'COMPLETE',
    });
    await announcePayout(tx.manager, moved);
    if (step.nextInMs !== null && isOpen(moved.status)) await this.scheduleStep(tx, moved.id, moved.status, step.nextInMs);
  }

  /** The step's ledger entry; a refund's split reads the merchant's funds under lock (MerchantLedger.lockFunds). */
  private async entryOf(tx: TransactionContext, payout: Payout, event: PayoutTransition): Promise<NewLedgerEntry> {
    const movement = (suffix: string, kind: string): Movement => ({
      reference: `payout:${payout.id}:${suffix}`,
      kind,
      merchantId: payout.accountId,
      currency: payout.currency,
      metadata: { payout_id: payout.id },
    });
    const amount = payout.amountMinor;
    switch (event) {
      case 'PROCESS':
        return payoutInTransitEntry(movement('processing', 'payout.in_transit'), amount);
      case 'COMPLETE':
        return payoutCompletedEntry(movement('completed', 'payout.completed'), amount, payout.destination);
      case 'FAIL':
        return payoutFailedEntry(movement('failed', 'payout.failed'), amount);
      case 'REFUND': {
        const funds = await this.ledger.lockFunds(tx.manager, payout.accountId, payout.currency);
        return payoutRefundedEntry(movement('refunded', 'payout.refunded'), amount, funds);
      }
    }
  }

  private scheduleStep(tx: TransactionContext, payoutId: string, status: OpenStatus, inMs: number): Promise<void> {
    return this.jobs.schedule(tx, { kind: PAYOUT_STEP_JOBS[status], subjectId: payoutId, dueAt: new Date(Date.now() + inMs) });
  }
}
