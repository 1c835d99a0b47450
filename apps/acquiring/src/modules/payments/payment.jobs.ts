import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AttemptStatus } from '@paygrid/contracts';
import { HandleJob } from '@paygrid/platform';
import { Tx, UnitOfWork } from '../../common/unit-of-work';
import { CARD_CONNECTOR, CardConnector } from '../connectors/connector';
import { Authorization } from './authorization';
import { CaptureIntentOperation } from './operations/capture-intent.operation';
import { PaymentFlow, Snapshot } from './payment-flow';
import { PaymentRepository } from './payment.repository';

/**
 * The delayed work of payments. Each handler re-reads the state it acts on and does nothing when the
 * payment has moved on (a job can run twice, or after a merchant's own capture or cancel): the
 * conditional updates behind PaymentFlow make a late run harmless.
 */
const JOB_COMMAND = (kind: string) => ({ command_id: null, type: `acquiring.job.${kind}` });

@Injectable()
export class PaymentJobs {
  constructor(
    private readonly unit: UnitOfWork,
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
    await this.authorization.apply(JOB_COMMAND('complete_async_authorization'), attempt.intentId, attempt.id, result, null);
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

  @HandleJob('void_authorization')
  async voidAuthorization(attemptId: string): Promise<void> {
    const attempt = await this.payments.findAttempt(this.dataSource, attemptId);
    if (!attempt?.processorReference) return;
    await this.connector.void({ processorReference: attempt.processorReference, attemptId });
  }

  private async onLatestAttempt(
    attemptId: string,
    expected: AttemptStatus,
    work: (tx: Tx, snapshot: Snapshot) => Promise<unknown>,
  ): Promise<void> {
    const attempt = await this.payments.findAttempt(this.dataSource, attemptId);
    if (!attempt || attempt.status !== expected) return;
    await this.unit.transaction('payment_intent', async (tx) => {
      const snapshot = await this.flow.snapshot(tx.manager, attempt.intentId, { lock: true });
      if (snapshot.attempt?.id !== attemptId || snapshot.attempt.status !== expected) return;
      await work(tx, snapshot);
    });
  }
}
