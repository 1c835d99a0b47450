import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AttemptStatus } from '@paygrid/contracts';
import { HandleJob, TransactionContext } from '@paygrid/platform';
import { Transactions } from '../../common/transactions';
import { CARD_CONNECTOR, CardConnector } from '../connectors/connector';
import { Authorization, Completion } from './authorization';
import { CaptureIntentOperation } from './operations/capture-intent.operation';
import { PaymentFlow, Snapshot } from './payment-flow';
import { PaymentRepository } from './payment.repository';

/**
 * The delayed work of payments, as durable jobs (the kinds are stored in Postgres and Redis: never rename
 * one). Each handler re-reads the state it acts on and does nothing when the payment has moved on (a job
 * can run twice, or after a merchant's own capture or cancel): the conditional updates behind
 * PaymentFlow make a late run harmless.
 */
@Injectable()
export class PaymentJobs {
  /** A job's processor answer is applied in a plain transaction: no command (and no ledger) drives it. */
  private readonly completeInTransaction: Completion = (work) =>
    this.transactions.run(work).then((result) => ({ result, applied: true }));

  constructor(
    private readonly transactions: Transactions,
    private readonly dataSource: DataSource,
    private readonly payments: PaymentRepository,
    private readonly flow: PaymentFlow,
    private readonly authorization: Authorization,
    private readonly capture: CaptureIntentOperation,
    @Inject(CARD_CONNECTOR) private readonly connector: CardConnector,
  ) {}

  /** The asynchronous card: the processor's final answer, a few seconds later. */
  @HandleJob('complete_async_authorization')
  async completeAsync(attemptId: string): Promise<void> {
    const attempt = await this.payments.findAttempt(this.dataSource, attemptId);
    if (!attempt || attempt.status !== 'PENDING_AUTHORIZATION' || !attempt.processorReference) return;
    const result = await this.connector.checkAuthorization({
      processorReference: attempt.processorReference,
      capture: attempt.autoCapture,
      previous: attempt.authenticationData,
    });
    if (result.kind === 'pending') throw new Error(`attempt ${attemptId} is still pending at the processor`);
    const snapshot = await this.flow.snapshot(this.dataSource, attempt.intentId);
    await this.authorization.apply(this.completeInTransaction, { ...snapshot, attempt }, result, null);
  }

  /** A challenge nobody completed while the client_secret was valid: the shopper may start again. */
  @HandleJob('expire_authentication')
  async expireAuthentication(attemptId: string): Promise<void> {
    await this.onLatestAttempt(attemptId, 'AUTHENTICATION_REDIRECTED', (tx, snapshot) =>
      this.flow.transitionAttempt(tx, snapshot, 'EXPIRE', { failure_code: 'authentication_expired', completed_at: new Date() }),
    );
  }

  /** The capture window closed on an authorisation nobody captured or cancelled: capture it all. */
  @HandleJob('auto_capture')
  async autoCapture(attemptId: string): Promise<void> {
    await this.onLatestAttempt(attemptId, 'AUTHORIZED', (tx, snapshot) =>
      this.capture.capture(tx, snapshot, snapshot.attempt?.amountMinor ?? 0n),
    );
  }

  /** A cancelled authorisation: release it at the processor. */
  @HandleJob('void_authorization')
  async voidAuthorization(attemptId: string): Promise<void> {
    const attempt = await this.payments.findAttempt(this.dataSource, attemptId);
    if (!attempt?.processorReference) return;
    await this.connector.void({ processorReference: attempt.processorReference, attemptId });
  }

  private async onLatestAttempt(
    attemptId: string,
    expected: AttemptStatus,
    work: (tx: TransactionContext, snapshot: Snapshot) => Promise<unknown>,
  ): Promise<void> {
    const attempt = await this.payments.findAttempt(this.dataSource, attemptId);
    if (!attempt || attempt.status !== expected) return;
    await this.transactions.run(async (tx) => {
      const snapshot = await this.flow.snapshot(tx.manager, attempt.intentId, { lock: true });
      if (snapshot.attempt?.id !== attemptId || snapshot.attempt.status !== expected) return;
      await work(tx, snapshot);
    });
  }
}
