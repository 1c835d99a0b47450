import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  AcquiringEventName,
  AcquiringEvents,
  Actor,
  CreateRefundPayload,
  EventTopics,
  ListRefundsPayload,
  Page,
  RefundIdPayload,
  RefundView,
} from '@paygrid/contracts';
import { newId } from '@paygrid/ids';
import { formatAmount } from '@paygrid/money';
import { appendToOutbox, DurableJobs, Executor, TransactionContext } from '@paygrid/platform';
import { ACQUIRING_CONFIG, AcquiringConfig } from '../../config';
import { AcquiringErrors } from '../../common/acquiring-errors';
import { pageOf, pageWindow, timeFilter } from '../../common/paging';
import { Transactions } from '../../common/transactions';
import { requireAmount } from '../../common/wire-amount';
import { CARD_CONNECTOR, CardConnector } from '../connectors/connector';
import { PaymentRepository } from '../payments/payment.repository';
import { presentRefund } from './refund.presenter';
import { RefundRepository } from './refund.repository';
import { Refund } from './refund.types';

/**
 * Refunds (wire-compat §9.8; decisions §7). Creating one locks the intent's row, so concurrent refunds
 * of one payment are serialised and their sum never exceeds what was captured (failed refunds give their
 * amount back). The processor is reached by a durable job: INITIATED → PROCESSING (recorded before the
 * call) → SUCCEEDED | FAILED. Refund events carry what a payouts ledger needs: the account, the currency
 * and minor-unit amounts as strings, with the fee (zero in the sandbox).
 */
@Injectable()
export class RefundService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: Transactions,
    private readonly refunds: RefundRepository,
    private readonly payments: PaymentRepository,
    private readonly jobs: DurableJobs,
    @Inject(CARD_CONNECTOR) private readonly connector: CardConnector,
    @Inject(ACQUIRING_CONFIG) private readonly config: Pick<AcquiringConfig, 'REFUND_DELAY_MS'>,
  ) {}

  async create(tx: TransactionContext, actor: Actor, payload: CreateRefundPayload): Promise<RefundView> {
    const intent = await this.payments.lockIntent(tx.manager, payload.payment_intent_id, actor.account_id);
    if (!intent) throw AcquiringErrors.notFound('payment_intent');
    if (intent.status !== 'SUCCEEDED') {
      throw AcquiringErrors.unexpectedState(`cannot refund PaymentIntent: status is ${intent.status}`);
    }
    if (payload.payment_attempt_id !== undefined && payload.payment_attempt_id !== intent.latestAttemptId) {
      throw AcquiringErrors.notFound('payment_attempt');
    }
    const amountMinor = requireAmount('amount', payload.amount, intent.currency);
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
      reason: payload.reason ?? '',
      metadata: payload.metadata ?? {},
    });
    await this.announce(tx.manager, AcquiringEvents.refundCreated, refund);
    await this.jobs.schedule(tx, { kind: 'process_refund', subjectId: refund.id, dueAt: new Date(Date.now() + this.config.REFUND_DELAY_MS) });
    return presentRefund(refund);
  }

  async retrieve(actor: Actor, payload: RefundIdPayload): Promise<RefundView> {
    const refund = await this.refunds.find(this.dataSource, payload.refund_id, actor.account_id);
    if (!refund) throw AcquiringErrors.notFound('refund');
    return presentRefund(refund);
  }

  async list(actor: Actor, query: ListRefundsPayload): Promise<Page<RefundView>> {
    const filter = {
      accountId: actor.account_id,
      intentId: query.payment_intent_id,
      merchantOrderId: query.merchant_order_id,
      createdFrom: timeFilter(query.start_time),
      createdTo: timeFilter(query.end_time),
    };
    return pageOf(query, await this.refunds.list(this.dataSource, filter, pageWindow(query)), presentRefund);
  }

  /** The job: submit (recorded first), call the processor outside any transaction, record the answer. */
  async process(refundId: string): Promise<void> {
    const refund = await this.refunds.find(this.dataSource, refundId);
    if (!refund || refund.status === 'SUCCEEDED' || refund.status === 'FAILED') return;
    if (refund.status === 'INITIATED') {
      await this.transactions.run((tx) => this.refunds.transition(tx.manager, refundId, 'SUBMIT'));
    }
    const attempt = await this.payments.findAttempt(this.dataSource, refund.attemptId);
    const answer = await this.connector.refund({
      processorReference: attempt?.processorReference ?? '',
      refundId,
      amountMinor: refund.amountMinor,
      currency: refund.currency,
    });
    await this.transactions.run(async (tx) => {
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
