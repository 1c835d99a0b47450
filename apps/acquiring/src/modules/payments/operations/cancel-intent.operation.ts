import { Injectable } from '@nestjs/common';
import { Actor, CancelIntentPayload, PaymentIntentView } from '@paygrid/contracts';
import { DurableJobs, TransactionContext } from '@paygrid/platform';
import { PaymentFlow } from '../payment-flow';
import { intentMachine } from '../payment-intent.states';

/**
 * Cancel a PaymentIntent (spec 4.2), allowed from REQUIRES_PAYMENT_METHOD, REQUIRES_CUSTOMER_ACTION and
 * REQUIRES_CAPTURE. validate → load under the row lock → decide (the state table; racing a capture, one
 * of the two wins the lock and the other is refused naming the status) → update: a live attempt (an
 * authorisation or a pending challenge) is voided, and the processor is told by a durable job after
 * commit; cancel_time and cancellation_reason are set.
 */
@Injectable()
export class CancelIntentOperation {
  constructor(
    private readonly flow: PaymentFlow,
    private readonly jobs: DurableJobs,
  ) {}

  async execute(tx: TransactionContext, actor: Actor, payload: CancelIntentPayload): Promise<PaymentIntentView> {
    const intentId = payload.payment_intent_id;
    const reason = payload.cancellation_reason;
    const snapshot = await this.flow.snapshot(tx.manager, intentId, { accountId: actor.account_id, lock: true });
    intentMachine.assertTransition(snapshot.intent.status, 'CANCEL', intentId);
    const now = new Date();
    const changes = { cancelled_at: now, cancellation_reason: reason ?? null };
    const live = snapshot.attempt;
    if (live && (live.status === 'AUTHORIZED' || live.status === 'AUTHENTICATION_REDIRECTED')) {
      const next = await this.flow.transitionAttempt(
        tx,
        snapshot,
        'VOID',
        { cancellation_reason: reason ?? '', completed_at: now },
        'CANCEL',
        changes,
      );
      await this.jobs.schedule(tx, { kind: 'void_authorization', subjectId: live.id, dueAt: now });
      return this.flow.view(next);
    }
    return this.flow.view(await this.flow.syncIntent(tx, snapshot, changes, 'CANCEL'));
  }
}
