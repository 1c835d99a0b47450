import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AcquiringCommands, AcquiringEvents, CommandEnvelope, EventTopics, Page, SettlementView } from '@paygrid/contracts';
import { newId } from '@paygrid/ids';
import { formatAmount } from '@paygrid/money';
import { appendToOutbox, CommandHandler } from '@paygrid/platform';
import { pagedList } from '../../common/actor';
import { UnitOfWork } from '../../common/unit-of-work';
import { CARD_CONNECTOR, CardConnector } from '../connectors/connector';
import { JobScheduler } from '../jobs/job-scheduler';
import { PaymentFlow } from '../payments/payment-flow';
import { LIMITS } from '../payments/payment-payloads';
import { PaymentRepository } from '../payments/payment.repository';
import { Settlement, SettlementRepository } from './settlement.repository';

/**
 * Settlement: a short sandbox delay after capture, the captured amount is cleared at the processor
 * (outside any transaction) and the attempt becomes SETTLED in a settlement batch per account, currency
 * and day. acquiring.settlement.succeeded carries what the payouts ledger credits: account, currency,
 * gross, fee (zero in the sandbox) and net in minor units as strings.
 */
export function presentSettlement(settlement: Settlement): SettlementView {
  const amount = (minor: bigint) => formatAmount(minor, settlement.currency);
  return {
    settlement_id: settlement.id,
    settlement_batch_id: settlement.batchId,
    payment_intent_id: settlement.intentId,
    payment_attempt_id: settlement.attemptId,
    merchant_order_id: settlement.merchantOrderId,
    account_id: settlement.accountId,
    currency: settlement.currency,
    amount: amount(settlement.amountMinor),
    fee_amount: amount(settlement.feeMinor),
    net_amount: amount(settlement.netMinor),
    amount_minor: settlement.amountMinor.toString(),
    fee_amount_minor: settlement.feeMinor.toString(),
    net_amount_minor: settlement.netMinor.toString(),
    settlement_status: 'SUCCEEDED',
    settled_time: settlement.settledAt.toISOString(),
    create_time: settlement.createdAt.toISOString(),
  };
}

@Injectable()
export class SettlementService implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly unit: UnitOfWork,
    private readonly settlements: SettlementRepository,
    private readonly payments: PaymentRepository,
    private readonly flow: PaymentFlow,
    private readonly scheduler: JobScheduler,
    @Inject(CARD_CONNECTOR) private readonly connector: CardConnector,
  ) {}

  onModuleInit(): void {
    this.scheduler.register('settle_capture', (id) => this.settle(id));
  }

  @CommandHandler(AcquiringCommands.listSettlements)
  list(command: CommandEnvelope): Promise<Page<SettlementView>> {
    return pagedList(
      command,
      (reader, actor) => ({
        accountId: actor.account_id,
        intentId: reader.string('payment_intent_id', { max: LIMITS.intentId }),
        batchId: reader.string('settlement_batch_id', { max: LIMITS.intentId }),
        settledFrom: reader.time('settled_start_time'),
        settledTo: reader.time('settled_end_time'),
      }),
      (filter, window) => this.settlements.list(this.dataSource, filter, window),
      presentSettlement,
    );
  }

  /** The job: clear at the processor, then record the settlement and SETTLED in one transaction. */
  async settle(attemptId: string): Promise<void> {
    const attempt = await this.payments.findAttempt(this.dataSource, attemptId);
    if (!attempt || attempt.status !== 'CAPTURE_REQUESTED') return;
    const { arn } = await this.connector.clear({
      processorReference: attempt.processorReference ?? '',
      attemptId,
      amountMinor: attempt.capturedAmountMinor,
      currency: attempt.currency,
    });
    await this.unit.transaction('payment_attempt', async (tx) => {
      const snapshot = await this.flow.snapshot(tx.manager, attempt.intentId, { lock: true });
      const current = await this.payments.findAttempt(tx.manager, attemptId);
      if (current?.status !== 'CAPTURE_REQUESTED') return;
      const settledAt = new Date();
      const settlement = await this.settlements.insert(tx.manager, {
        id: newId('stl'),
        batchId: await this.settlements.batchFor(tx.manager, current.accountId, current.currency, settledAt),
        intentId: current.intentId,
        attemptId,
        accountId: current.accountId,
        masterAccountId: snapshot.intent.masterAccountId,
        currency: current.currency,
        amountMinor: current.capturedAmountMinor,
        feeMinor: 0n,
        netMinor: current.capturedAmountMinor,
        settledAt,
      });
      if (!settlement) return;
      await this.flow.transitionAttempt(tx, { ...snapshot, attempt: current }, 'SETTLE', { arn });
      await appendToOutbox(tx.manager, {
        topic: EventTopics.acquiring,
        event_name: AcquiringEvents.settlementSucceeded,
        event_type: 'ACQUIRING',
        source_id: settlement.id,
        account_id: settlement.accountId,
        master_account_id: settlement.masterAccountId,
        data: presentSettlement(settlement),
      });
    });
  }
}
