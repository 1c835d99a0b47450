import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import {
  AcquiringEvents,
  Actor,
  EventTopics,
  ListSettlementsPayload,
  Page,
  SettledTotalsView,
  SettlementView,
} from '@paygrid/contracts';
import { newId } from '@paygrid/ids';
import {
  appendToOutbox,
  GENERIC_PLANS,
  GroupCommit,
  JobRunInfo,
  LOGGER,
  TransactionContext,
  transactionEndingWith,
} from '@paygrid/platform';
import { pageOf, pageWindow, timeFilter } from '../../common/paging';
import { Transactions } from '../../common/transactions';
import { ACQUIRING_CONFIG, AcquiringConfig } from '../../config';
import { CARD_CONNECTOR, CardConnector } from '../connectors/connector';
import { PaymentFlow, Snapshot } from '../payments/payment-flow';
import { PaymentRepository } from '../payments/payment.repository';
import { PaymentAttempt } from '../payments/payment.types';
import { presentSettlement } from './settlement.presenter';
import { SettlementRepository } from './settlement.repository';

/**
 * Settlement: a short sandbox delay after capture, the captured amount is cleared at the processor
 * (outside any transaction) and the attempt becomes SETTLED in a settlement batch per account, currency
 * and day. acquiring.settlement.succeeded carries what the payouts ledger credits: account, currency,
 * gross, fee (zero in the sandbox) and net in minor units as strings.
 *
 * Captures cleared about the same time are recorded in one transaction (up to SETTLEMENT_BATCH_MAX): one
 * commit, and one batch of events for the relay, the ledger's intake and the webhook dispatcher, where
 * each capture used to cost each of them a transaction of its own (docs/performance.md §18).
 */
@Injectable()
export class SettlementService {
  /**
   * Cleared captures waiting for their transaction. SETTLEMENT_BATCH_MAX: each one's job run holds one of
   * the jobs' slots (8) while it waits, so a batch stays below that and the next gathers while one is
   * written. SETTLEMENT_GATHER_MS: how long the first of a quiet moment waits for others; settlement is no
   * caller's answer (the sandbox settles seconds after capture), and at a few captures a second they come
   * this far apart.
   */
  private readonly cleared: GroupCommit<Cleared, void>;
  /**
   * The attempts the job's runs start from, read together: the runs of one timer slot start in the same turn
   * (local-job-timers.ts), so their reads are one statement, as their claims were.
   */
  private readonly attemptReads: GroupCommit<string, PaymentAttempt | undefined>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: Transactions,
    private readonly settlements: SettlementRepository,
    private readonly payments: PaymentRepository,
    private readonly flow: PaymentFlow,
    @Inject(CARD_CONNECTOR) private readonly connector: CardConnector,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(ACQUIRING_CONFIG) config: Pick<AcquiringConfig, 'SETTLEMENT_BATCH_MAX' | 'SETTLEMENT_GATHER_MS'>,
  ) {
    // A batch that cannot commit is recorded again one capture per transaction, so that only a capture that
    // cannot be recorded fails its run (and is retried by it) and the others settle.
    this.cleared = new GroupCommit((batch) => this.recordBatch(batch), config.SETTLEMENT_BATCH_MAX, {
      gatherMs: config.SETTLEMENT_GATHER_MS,
      alone: (capture) => this.transactions.run((tx) => this.recordSettlements(tx, [capture])),
    });
    // One round trip: BEGIN with GENERIC_PLANS, the read and COMMIT (transactionEndingWith).
    this.attemptReads = new GroupCommit(
      (ids) => {
        const { statement, read } = this.payments.findAttemptsStatement(ids);
        return transactionEndingWith(this.dataSource, [GENERIC_PLANS], async () => ({
          last: statement,
          read,
        }));
      },
      100,
      { gatherMs: 1 },
    );
  }

  async list(actor: Actor, query: ListSettlementsPayload): Promise<Page<SettlementView>> {
    const filter = {
      accountId: actor.account_id,
      intentId: query.payment_intent_id,
      batchId: query.settlement_batch_id,
      settledFrom: timeFilter(query.settled_start_time),
      settledTo: timeFilter(query.settled_end_time),
    };
    return pageOf(
      query,
      await this.settlements.list(this.dataSource, filter, pageWindow(query)),
      presentSettlement,
    );
  }

  async totals(): Promise<SettledTotalsView> {
    const totals = await this.settlements.totals(this.dataSource);
    return {
      totals: totals.map((total) => ({
        account_id: total.accountId,
        currency: total.currency,
        settlement_count: total.count,
        gross_minor: total.grossMinor.toString(),
      })),
    };
  }

  /**
   * The job: clear at the processor (outside any transaction), then record the settlement, SETTLED and the
   * run's completion in a transaction shared with the captures cleared about the same time (settleCleared).
   */
  async settle(attemptId: string, run?: JobRunInfo): Promise<void> {
    const attempt = await this.attemptReads.submit(attemptId);
    if (!attempt || attempt.status !== 'CAPTURE_REQUESTED') return;
    const { arn } = await this.connector.clear({
      processorReference: attempt.processorReference ?? '',
      attemptId,
      amountMinor: attempt.capturedAmountMinor,
      currency: attempt.currency,
    });
    await this.cleared.submit({ attempt, arn, run });
  }

  private async recordBatch(batch: Cleared[]): Promise<void[]> {
    try {
      // On generic plans: the intents' locking read takes their ids as an array, and on its custom plans it was
      // planned again on every batch, three times its execution time (GENERIC_PLANS, libs/platform).
      await this.transactions.run((tx) => this.recordSettlements(tx, batch), { settings: [GENERIC_PLANS] });
    } catch (error) {
      if (batch.length > 1)
        this.logger.warn(
          { err: error, attempt_ids: batch.map(({ attempt }) => attempt.id) },
          'a batch of settlements failed; recording each on its own',
        );
      throw error;
    }
    return batch.map(() => undefined);
  }

  /**
   * Under the intents' row locks (taken in one statement, in intent id order): for each capture still
   * CAPTURE_REQUESTED, its settlement in its account's batch for the day, SETTLED, its events and its run's
   * completion. The statements of all captures travel together: one round trip for the locks, one for the
   * settlements, and one for the attempts' moves and the runs' completions (each with its events, sent
   * without waiting: JobRunInfo.completeIn) with COMMIT.
   */
  private async recordSettlements(tx: TransactionContext, batch: Cleared[]): Promise<void> {
    const locked = await this.payments.lockIntentsWithLatestAttempts(
      tx.manager,
      batch.map(({ attempt }) => attempt.intentId),
    );
    const snapshots = new Map(
      await Promise.all(
        locked.map(
          async ({ intent, attempt }) =>
            [intent.id, await this.flow.complete(tx.manager, intent, attempt)] as const,
        ),
      ),
    );
    const due = await Promise.all(
      batch.map((capture) => this.stillDue(tx, capture, snapshots.get(capture.attempt.intentId))),
    );
    const settledAt = new Date();
    // In account and currency order, so that two batches creating the same days' batch rows meet in one order.
    const ordered = due.filter(isDue).sort((a, b) => compareKeys(a.current, b.current));
    const settlements = await Promise.all(
      ordered.map(({ current, snapshot }) =>
        this.settlements.insert(tx.manager, {
          id: newId('stl'),
          intentId: current.intentId,
          attemptId: current.id,
          merchantOrderId: snapshot.intent.merchantOrderId,
          accountId: current.accountId,
          masterAccountId: snapshot.intent.masterAccountId,
          currency: current.currency,
          amountMinor: current.capturedAmountMinor,
          feeMinor: 0n,
          netMinor: current.capturedAmountMinor,
          settledAt,
        }),
      ),
    );
    for (const [index, { current, snapshot, capture }] of ordered.entries()) {
      const settlement = settlements[index];
      // Already settled (an earlier run committed it): nothing to move; the runner completes this run.
      if (!settlement) continue;
      // Checked under the intent's lock: CAPTURE_REQUESTED, which SETTLE leaves.
      await this.flow.transitionCheckedAttempt(tx, { ...snapshot, attempt: current }, 'SETTLE', {
        arn: capture.arn,
      });
      await appendToOutbox(tx.manager, {
        topic: EventTopics.acquiring,
        event_name: AcquiringEvents.settlementSucceeded,
        event_type: 'ACQUIRING',
        source_id: settlement.id,
        account_id: settlement.accountId,
        master_account_id: settlement.masterAccountId,
        data: presentSettlement(settlement),
      });
      // Sent, not awaited (JobRunInfo.completeIn): it rides with COMMIT, with this settlement's event.
      await capture.run?.completeIn?.(tx);
    }
  }

  /** The capture's attempt as it stands under its intent's lock, when it is still to be settled. */
  private async stillDue(
    tx: TransactionContext,
    capture: Cleared,
    locked: Snapshot | undefined,
  ): Promise<Due | undefined> {
    const snapshot =
      locked ?? (await this.flow.snapshot(tx.manager, capture.attempt.intentId, { lock: true }));
    // The lock read the latest attempt: that is this one, unless a newer started.
    const current =
      snapshot.attempt?.id === capture.attempt.id
        ? snapshot.attempt
        : await this.payments.findAttempt(tx.manager, capture.attempt.id);
    if (current?.status !== 'CAPTURE_REQUESTED') return undefined;
    return { capture, snapshot, current };
  }
}

/** A capture cleared at the processor, waiting for its settlement's record. */
interface Cleared {
  attempt: PaymentAttempt;
  arn: string;
  run?: JobRunInfo;
}

interface Due {
  capture: Cleared;
  snapshot: Snapshot;
  current: PaymentAttempt;
}

function isDue(due: Due | undefined): due is Due {
  return due !== undefined;
}

function compareKeys(a: PaymentAttempt, b: PaymentAttempt): number {
  const key = (attempt: PaymentAttempt) =>
    `${attempt.accountId}\u0000${attempt.currency}\u0000${attempt.intentId}`;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}
