import { Inject, Injectable } from '@nestjs/common';
import { CommandEnvelope, PaymentIntentView } from '@paygrid/contracts';
import { formatAmount } from '@paygrid/money';
import { ACQUIRING_CONFIG, AcquiringConfig } from '../../../config';
import { AcquiringErrors } from '../../../common/acquiring-errors';
import { requireActor } from '../../../common/actor';
import { PayloadReader, requireWireAmount } from '../../../common/payload-reader';
import { Tx, UnitOfWork } from '../../../common/unit-of-work';
import { PaymentFlow, Snapshot } from '../payment-flow';
import { intentMachine } from '../payment-intent.states';
import { readIntentId } from '../payment-payloads';

/**
 * Capture an authorised PaymentIntent (wire-compat §9.5): all of it, or `amount_to_capture` of it, once.
 * validate → load under the intent's row lock → decide (REQUIRES_CAPTURE only: a cancel that won the
 * lock first makes this "cannot capture PaymentIntent: status is CANCELLED") → update the attempt to
 * CAPTURE_REQUESTED and schedule its settlement. The processor is reached by the settlement run, so
 * nothing external happens inside this transaction. The window-close job captures through `capture`.
 */
@Injectable()
export class CaptureIntentOperation {
  constructor(
    private readonly unit: UnitOfWork,
    private readonly flow: PaymentFlow,
    @Inject(ACQUIRING_CONFIG) private readonly config: Pick<AcquiringConfig, 'SETTLEMENT_DELAY_MS'>,
  ) {}

  async execute(command: CommandEnvelope): Promise<PaymentIntentView> {
    const actor = requireActor(command);
    const reader = PayloadReader.of(command);
    const intentId = readIntentId(reader);
    const requested = reader.string('amount_to_capture');
    reader.done();
    const { result } = await this.unit.once(command, 'payment_intent', async (tx) => {
      const snapshot = await this.flow.snapshot(tx.manager, intentId, { accountId: actor.account_id, lock: true });
      intentMachine.assertTransition(snapshot.intent.status, 'CAPTURE', intentId);
      const amount =
        requested === undefined
          ? snapshot.intent.amountMinor
          : requireWireAmount('amount_to_capture', requested, snapshot.intent.currency);
      return this.flow.view(await this.capture(tx, snapshot, amount));
    });
    return result;
  }

  /** The decide-and-update step on a locked, REQUIRES_CAPTURE intent. */
  async capture(tx: Tx, snapshot: Snapshot, amountMinor: bigint): Promise<Snapshot> {
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
    await tx.schedule('settle_capture', attempt.id, new Date(now.getTime() + this.config.SETTLEMENT_DELAY_MS));
    return next;
  }
}
