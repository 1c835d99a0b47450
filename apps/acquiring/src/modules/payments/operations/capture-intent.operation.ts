import { Injectable } from '@nestjs/common';
import { Actor, CaptureIntentPayload, PaymentIntentView } from '@paygrid/contracts';
import { formatAmount } from '@paygrid/money';
import { TransactionContext } from '@paygrid/platform';
import { AcquiringErrors } from '../../../common/acquiring-errors';
import { requireAmount } from '../../../common/wire-amount';
import { PaymentFlow, Snapshot } from '../payment-flow';
import { intentMachine } from '../payment-intent.states';

/**
 * Capture an authorised PaymentIntent (wire-compat §9.5): all of it, or `amount_to_capture` of it, once.
 * validate → load under the intent's row lock → decide (REQUIRES_CAPTURE only: a cancel that won the
 * lock first makes this "cannot capture PaymentIntent: status is CANCELLED") → update the attempt to
 * CAPTURE_REQUESTED and schedule its settlement. The processor is reached by the settlement run, so
 * nothing external happens inside this transaction. The window-close job captures through `capture`.
 */
@Injectable()
export class CaptureIntentOperation {
  constructor(private readonly flow: PaymentFlow) {}

  async execute(tx: TransactionContext, actor: Actor, payload: CaptureIntentPayload): Promise<PaymentIntentView> {
    const snapshot = await this.flow.snapshot(tx.manager, payload.payment_intent_id, { accountId: actor.account_id, lock: true });
    intentMachine.assertTransition(snapshot.intent.status, 'CAPTURE', payload.payment_intent_id);
    const amount =
      payload.amount_to_capture === undefined
        ? snapshot.intent.amountMinor
        : requireAmount('amount_to_capture', payload.amount_to_capture, snapshot.intent.currency);
    return this.flow.view(await this.capture(tx, snapshot, amount));
  }

  /** The decide-and-update step on a locked, REQUIRES_CAPTURE intent. */
  async capture(tx: TransactionContext, snapshot: Snapshot, amountMinor: bigint): Promise<Snapshot> {
    const attempt = snapshot.attempt;
    if (!attempt) throw new Error(`intent ${snapshot.intent.id} has no authorised attempt`);
    if (amountMinor > attempt.amountMinor) {
      throw AcquiringErrors.captureExceedsAuthorized(formatAmount(attempt.amountMinor, attempt.currency), attempt.currency);
    }
    const now = new Date();
    const next = await this.flow.transitionAttempt(
      tx,
      snapshot,
      'CAPTURE',
      { captured_amount_minor: amountMinor, completed_at: now },
      'CAPTURE',
    );
    await this.flow.scheduleSettlement(tx, attempt.id, now);
    return next;
  }
}
