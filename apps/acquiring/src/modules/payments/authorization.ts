import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { PaymentIntentView } from '@paygrid/contracts';
import { LOGGER, missedPlannedRows, StagedContext } from '@paygrid/platform';
import { CardForPayment } from '../cards/card-transport';
import { AuthorizationResult, CARD_CONNECTOR, CardConnector, PlainCard } from '../connectors/connector';
import { PaymentFlow, Snapshot } from './payment-flow';

/**
 * The one synchronous processor call, medusa-style: the attempt was recorded INITIATED in its own
 * transaction before this runs; the processor is called outside any transaction; its answer is applied
 * by `complete` (a staged command's ledger step, or a job's plain transaction). If that last step fails,
 * or a concurrent duplicate of the command got there first (`applied: false`), the authorisation is
 * voided at the processor (the compensating step), and a retry of the same command resumes the
 * still-INITIATED attempt.
 */
export type Completion = StagedContext['complete'];

@Injectable()
export class Authorization {
  constructor(
    private readonly flow: PaymentFlow,
    @Inject(CARD_CONNECTOR) private readonly connector: CardConnector,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** `asRecorded`: `prepared` is the intent and attempt exactly as this run recorded them (see apply). */
  async run(
    complete: Completion,
    prepared: Snapshot,
    card: Pick<CardForPayment, 'plain' | 'autoCapture' | 'threeDsAction'>,
    asRecorded = false,
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
    return this.apply(complete, prepared, result, card.plain, asRecorded);
  }

  /**
   * Records a processor answer for `known.attempt`, which must still be the intent's latest
   * (PaymentFlow.applyAuthorization checks it under the intent's row lock), and compensates when it is
   * not recorded.
   *
   * With `asRecorded` (`known` as this run wrote it a moment ago, nothing locked since) the answer is first
   * applied in one round trip, planned from those rows; should they have changed meanwhile (a cancel, a
   * job), that transaction fails having written nothing, and the answer is applied again the careful way,
   * under the intent's row lock, which then says what changed. Neither try voids before both are settled.
   */
  async apply(
    complete: Completion,
    known: Snapshot,
    result: AuthorizationResult,
    card: PlainCard | null,
    asRecorded = false,
  ): Promise<PaymentIntentView> {
    const attempt = known.attempt;
    if (!attempt) throw new Error(`intent ${known.intent.id} has no attempt to complete`);
    const applyOnce = (planned: boolean) =>
      complete(async (tx) => this.flow.view(await this.flow.applyAuthorization(tx, known, result, card, planned)));
    let outcome: { result: PaymentIntentView; applied: boolean };
    try {
      outcome = asRecorded
        ? await applyOnce(true).catch((error: unknown) => {
            if (missedPlannedRows(error)) return applyOnce(false);
            throw error;
          })
        : await applyOnce(false);
    } catch (error) {
      await this.compensate(attempt.id, result);
      throw error;
    }
    if (!outcome.applied) await this.compensate(attempt.id, result);
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
