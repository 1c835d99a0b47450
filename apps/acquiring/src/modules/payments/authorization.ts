import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { CommandEnvelope, PaymentIntentView } from '@paygrid/contracts';
import { LOGGER } from '@paygrid/platform';
import { UnitOfWork } from '../../common/unit-of-work';
import { CardForPayment } from '../cards/card-transport';
import { AuthorizationResult, CARD_CONNECTOR, CardConnector, PlainCard } from '../connectors/connector';
import { AcquiringErrors } from '../../common/acquiring-errors';
import { PaymentFlow, Snapshot } from './payment-flow';

/**
 * The one synchronous processor call, medusa-style: the attempt was recorded INITIATED in its own
 * transaction before this runs; the processor is called outside any transaction; its answer is applied
 * under the command ledger. If that last step fails, or a concurrent duplicate of the command got there
 * first, the authorisation is voided at the processor (the compensating step), and a retry of the same
 * command resumes the still-INITIATED attempt.
 */
@Injectable()
export class Authorization {
  constructor(
    private readonly unit: UnitOfWork,
    private readonly flow: PaymentFlow,
    @Inject(CARD_CONNECTOR) private readonly connector: CardConnector,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async run(
    command: Pick<CommandEnvelope, 'command_id' | 'type'>,
    prepared: Snapshot,
    card: Pick<CardForPayment, 'plain' | 'autoCapture' | 'threeDsAction'>,
  ): Promise<PaymentIntentView> {
    const attempt = prepared.attempt;
    if (!attempt || attempt.status !== 'INITIATED') return this.flow.view(prepared);
    const result = await this.connector.authorize({
      attemptId: attempt.id,
      amountMinor: attempt.amountMinor,
      currency: attempt.currency,
      card: card.plain,
      capture: card.autoCapture,
      enforceThreeDs: card.threeDsAction === 'enforce_3ds',
    });
    return this.apply(command, prepared.intent.id, attempt.id, result, card.plain);
  }

  /**
   * Records a processor answer for the intent's latest attempt under the command ledger (a null
   * command id: a plain transaction), compensating when it is not recorded.
   */
  async apply(
    command: Pick<CommandEnvelope, 'command_id' | 'type'>,
    intentId: string,
    attemptId: string,
    result: AuthorizationResult,
    card: PlainCard | null,
  ): Promise<PaymentIntentView> {
    let outcome: { result: PaymentIntentView; applied: boolean };
    try {
      outcome = await this.unit.once(command, 'payment_intent', async (tx) => {
        const current = await this.flow.snapshot(tx.manager, intentId, { lock: true });
        if (current.attempt?.id !== attemptId) {
          throw AcquiringErrors.unexpectedState(`cannot complete PaymentAttempt ${attemptId}: it is no longer the latest attempt`);
        }
        return this.flow.view(await this.flow.applyAuthorization(tx, current, result, card));
      });
    } catch (error) {
      await this.compensate(attemptId, result);
      throw error;
    }
    if (!outcome.applied) await this.compensate(attemptId, result);
    return outcome.result;
  }

  /** Releases whatever the processor holds for an answer that was not recorded. */
  async compensate(attemptId: string, result: AuthorizationResult): Promise<void> {
    if (result.kind === 'declined') return;
    try {
      await this.connector.void({ processorReference: result.processorReference, attemptId });
    } catch (error) {
      this.logger.error({ err: error, attempt_id: attemptId }, 'could not void an unrecorded authorisation');
    }
  }
}
