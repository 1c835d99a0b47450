import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AcquiringEvents, Actor, EventTopics, ListSettlementsPayload, Page, SettledTotalsView, SettlementView } from '@paygrid/contracts';
import { newId } from '@paygrid/ids';
import { appendToOutbox, JobRunInfo } from '@paygrid/platform';
import { pageOf, pageWindow, timeFilter } from '../../common/paging';
import { Transactions } from '../../common/transactions';
import { CARD_CONNECTOR, CardConnector } from '../connectors/connector';
import { PaymentFlow } from '../payments/payment-flow';
import { PaymentRepository } from '../payments/payment.repository';
import { presentSettlement } from './settlement.presenter';
import { SettlementRepository } from './settlement.repository';

/**
 * Settlement: a short sandbox delay after capture, the captured amount is cleared at the processor
 * (outside any transaction) and the attempt becomes SETTLED in a settlement batch per account, currency
 * and day. acquiring.settlement.succeeded carries what the payouts ledger credits: account, currency,
 * gross, fee (zero in the sandbox) and net in minor units as strings.
 */
@Injectable()
export class SettlementService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: Transactions,
    private readonly settlements: SettlementRepository,
    private readonly payments: PaymentRepository,
    private readonly flow: PaymentFlow,
    @Inject(CARD_CONNECTOR) private readonly connector: CardConnector,
  ) {}

  async list(actor: Actor, query: ListSettlementsPayload): Promise<Page<SettlementView>> {
    const filter = {
      accountId: actor.account_id,
      intentId: query.payment_intent_id,
      batchId: query.settlement_batch_id,
      settledFrom: timeFilter(query.settled_start_time),
      settledTo: timeFilter(query.settled_end_time),
    };
    return pageOf(query, await this.settlements.list(this.dataSource, filter, pageWindow(query)), presentSettlement);
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
   * The job: clear at the processor, then record the settlement, SETTLED and the run's completion in one
   * transaction.
   */
  async settle(attemptId: string, run?: JobRunInfo): Promise<void> {
    const attempt = await this.payments.findAttempt(this.dataSource, attemptId);
    if (!attempt || attempt.status !== 'CAPTURE_REQUESTED') return;
    const { arn } = await this.connector.clear({
      processorReference: attempt.processorReference ?? '',
      attemptId,
      amountMinor: attempt.capturedAmountMinor,
      currency: attempt.currency,
    });
    await this.transactions.run(async (tx) => {
      const snapshot = await this.flow.snapshot(tx.manager, attempt.intentId, { lock: true });
      // The snapshot read the latest attempt under the intent's lock: that is this one, unless a newer started.
      const current =
        snapshot.attempt?.id === attemptId ? snapshot.attempt : await this.payments.findAttempt(tx.manager, attemptId);
      if (current?.status !== 'CAPTURE_REQUESTED') return;
      const settledAt = new Date();
      const settlement = await this.settlements.insert(tx.manager, {
        id: newId('stl'),
        intentId: current.intentId,
        attemptId,
        merchantOrderId: snapshot.intent.merchantOrderId,
        accountId: current.accountId,
        masterAccountId: snapshot.intent.masterAccountId,
        currency: current.currency,
        amountMinor: current.capturedAmountMinor,
        feeMinor: 0n,
        netMinor: current.capturedAmountMinor,
        settledAt,
      });
      if (!settlement) return;
      // Checked above, under the intent's lock: CAPTURE_REQUESTED, which SETTLE leaves.
      await this.flow.transitionCheckedAttempt(tx, { ...snapshot, attempt: current }, 'SETTLE', { arn });
      await appendToOutbox(tx.manager, {
        topic: EventTopics.acquiring,
        event_name: AcquiringEvents.settlementSucceeded,
        event_type: 'ACQUIRING',
        source_id: settlement.id,
        account_id: settlement.accountId,
        master_account_id: settlement.masterAccountId,
        data: presentSettlement(settlement),
      });
      await run?.completeIn?.(tx);
    });
  }
}
