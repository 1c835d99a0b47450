import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  AcquiringCommands,
  AcquiringEventName,
  AcquiringEvents,
  CommandEnvelope,
  crossFieldProblems,
  EventTopics,
  Page,
  RefundView,
} from '@paygrid/contracts';
import { newId } from '@paygrid/ids';
import { formatAmount } from '@paygrid/money';
import { appendToOutbox, CommandHandler, Executor } from '@paygrid/platform';
import { ACQUIRING_CONFIG, AcquiringConfig } from '../../config';
import { AcquiringErrors } from '../../common/acquiring-errors';
import { pagedList, requireActor } from '../../common/actor';
import { PayloadReader, requireWireAmount } from '../../common/payload-reader';
import { UnitOfWork } from '../../common/unit-of-work';
import { CARD_CONNECTOR, CardConnector } from '../connectors/connector';
import { JobScheduler } from '../jobs/job-scheduler';
import { LIMITS, readIntentId } from '../payments/payment-payloads';
import { PaymentRepository } from '../payments/payment.repository';
import { Refund, RefundRepository } from './refund.repository';

/**
 * Refunds (wire-compat §9.8; decisions §7). Creating one locks the intent's row, so concurrent refunds
 * of one payment are serialised and their sum never exceeds what was captured (failed refunds give their
 * amount back). The processor is reached by a durable job: INITIATED → PROCESSING (recorded before the
 * call) → SUCCEEDED | FAILED. Refund events carry what a payouts ledger needs: the account, the currency
 * and minor-unit amounts as strings, with the fee (zero in the sandbox).
 */
const REFUND_REASON_MAX = 255;

export function presentRefund(refund: Refund): RefundView {
  const iso = (value: Date | null) => (value === null ? '' : value.toISOString());
  return {
    payment_refund_id: refund.id,
    payment_intent_id: refund.intentId,
    payment_attempt_id: refund.attemptId,
    account_id: refund.accountId,
    amount: formatAmount(refund.amountMinor, refund.currency),
    amount_minor: refund.amountMinor.toString(),
    fee_amount_minor: '0',
    currency: refund.currency,
    refund_status: refund.status,
    reason: refund.reason,
    metadata: refund.metadata,
    failure_code: refund.failureCode,
    create_time: iso(refund.createdAt),
    update_time: iso(refund.updatedAt),
    complete_time: iso(refund.completedAt),
  };
}

@Injectable()
export class RefundService implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly unit: UnitOfWork,
    private readonly refunds: RefundRepository,
    private readonly payments: PaymentRepository,
    private readonly scheduler: JobScheduler,
    @Inject(CARD_CONNECTOR) private readonly connector: CardConnector,
    @Inject(ACQUIRING_CONFIG) private readonly config: Pick<AcquiringConfig, 'REFUND_DELAY_MS'>,
  ) {}

  onModuleInit(): void {
    this.scheduler.register('process_refund', (id) => this.process(id));
  }

  @CommandHandler(AcquiringCommands.createRefund)
  async create(command: CommandEnvelope): Promise<RefundView> {
    const actor = requireActor(command);
    const reader = PayloadReader.of(command);
    const intentId = readIntentId(reader);
    const amount = reader.string('amount', { required: true });
    const reason = reader.string('reason', { max: REFUND_REASON_MAX }) ?? '';
    const attemptId = reader.string('payment_attempt_id', { max: LIMITS.intentId });
    const metadata = reader.stringMap('metadata') ?? {};
    reader.add(crossFieldProblems({ metadata }));
    reader.done();

    const { result } = await this.unit.once(command, 'refund', async (tx) => {
      const intent = await this.payments.lockIntent(tx.manager, intentId, actor.account_id);
      if (!intent) throw AcquiringErrors.notFound('payment_intent');
      if (intent.status !== 'SUCCEEDED') {
        throw AcquiringErrors.unexpectedState(`cannot refund PaymentIntent: status is ${intent.status}`);
      }
      if (attemptId !== undefined && attemptId !== intent.latestAttemptId) throw AcquiringErrors.notFound('payment_attempt');
      const amountMinor = requireWireAmount('amount', amount, intent.currency);
      const left = intent.capturedAmountMinor - (await this.refunds.reservedMinor(tx.manager, intent.id));
      if (amountMinor > left) throw AcquiringErrors.refundExceedsCaptured(formatAmount(left, intent.currency), intent.currency);
      const refund = await this.refunds.insert(tx.manager, {
        id: newId('re'),
        intentId: intent.id,
        attemptId: intent.latestAttemptId ?? '',
        accountId: intent.accountId,
        masterAccountId: intent.masterAccountId,
        amountMinor,
        currency: intent.currency,
        reason,
        metadata,
      });
      await this.announce(tx.manager, AcquiringEvents.refundCreated, refund);
      await tx.schedule('process_refund', refund.id, new Date(Date.now() + this.config.REFUND_DELAY_MS));
      return presentRefund(refund);
    });
    return result;
  }

  @CommandHandler(AcquiringCommands.retrieveRefund)
  async retrieve(command: CommandEnvelope): Promise<RefundView> {
    const actor = requireActor(command);
    const reader = PayloadReader.of(command);
    const id = reader.string('refund_id', { required: true, max: LIMITS.intentId });
    reader.done();
    const refund = await this.refunds.find(this.dataSource, id, actor.account_id);
    if (!refund) throw AcquiringErrors.notFound('refund');
    return presentRefund(refund);
  }

  @CommandHandler(AcquiringCommands.listRefunds)
  list(command: CommandEnvelope): Promise<Page<RefundView>> {
    return pagedList(
      command,
      (reader, actor) => ({
        accountId: actor.account_id,
        intentId: reader.string('payment_intent_id', { max: LIMITS.intentId }),
        merchantOrderId: reader.string('merchant_order_id', { max: LIMITS.merchantOrderId }),
        createdFrom: reader.time('start_time'),
        createdTo: reader.time('end_time'),
      }),
      (filter, window) => this.refunds.list(this.dataSource, filter, window),
      presentRefund,
    );
  }

  /** The job: submit (recorded first), call the processor outside any transaction, record the answer. */
  async process(refundId: string): Promise<void> {
    const refund = await this.refunds.find(this.dataSource, refundId);
    if (!refund || refund.status === 'SUCCEEDED' || refund.status === 'FAILED') return;
    if (refund.status === 'INITIATED') {
      await this.unit.transaction('refund', (tx) => this.refunds.transition(tx.manager, refundId, 'SUBMIT'));
    }
    const attempt = await this.payments.findAttempt(this.dataSource, refund.attemptId);
    const answer = await this.connector.refund({
      processorReference: attempt?.processorReference ?? '',
      refundId,
      amountMinor: refund.amountMinor,
      currency: refund.currency,
    });
    await this.unit.transaction('refund', async (tx) => {
      const current = await this.refunds.find(tx.manager, refundId);
      if (current?.status !== 'PROCESSING') return;
      const set = { processor_reference: answer.processorReference, completed_at: new Date() };
      if (answer.outcome === 'succeeded') {
        const done = await this.refunds.transition(tx.manager, refundId, 'SUCCEED', set);
        await this.payments.addRefunded(tx.manager, refund.attemptId, refund.amountMinor);
        await this.announce(tx.manager, AcquiringEvents.refundSucceeded, done);
      } else {
        const failed = await this.refunds.transition(tx.manager, refundId, 'FAIL', { ...set, failure_code: answer.failureCode });
        await this.announce(tx.manager, AcquiringEvents.refundFailed, failed);
      }
    });
  }

  private async announce(executor: Executor, name: AcquiringEventName, refund: Refund): Promise<void> {
    await appendToOutbox(executor, {
      topic: EventTopics.acquiring,
      event_name: name,
      event_type: 'ACQUIRING',
      source_id: refund.id,
      account_id: refund.accountId,
      master_account_id: refund.masterAccountId,
      data: presentRefund(refund),
    });
  }
}
