import { Inject, Injectable } from '@nestjs/common';
import { ConfirmIntentPayload, PaymentIntentView } from '@paygrid/contracts';
import { StagedContext, TransactionContext } from '@paygrid/platform';
import { CardForPayment, CardTransport } from '../../cards/card-transport';
import { CARD_CONNECTOR, CardConnector } from '../../connectors/connector';
import { Authorization } from '../authorization';
import { PaymentFlow, Snapshot } from '../payment-flow';
import { intentMachine } from '../payment-intent.states';
import { IntentChanges } from '../payment.repository';

/**
 * Confirm a PaymentIntent with a card (wire-compat §9.4), from REQUIRES_PAYMENT_METHOD only (a new
 * attempt after a decline included). Same phases as create: validate (card first) → load the intent
 * under a row lock → decide (the state table guards; a retry of this command resumes its own attempt)
 * → record the INITIATED attempt → authorise outside the transaction → apply the answer.
 */
export interface ConfirmCard extends Pick<CardForPayment, 'plain' | 'stored' | 'autoCapture' | 'threeDsAction'> {
  savedCardId: string | null;
}

@Injectable()
export class ConfirmIntentOperation {
  constructor(
    private readonly flow: PaymentFlow,
    private readonly cards: CardTransport,
    private readonly authorization: Authorization,
    @Inject(CARD_CONNECTOR) private readonly connector: CardConnector,
  ) {}

  async execute(context: StagedContext, payload: ConfirmIntentPayload): Promise<PaymentIntentView> {
    const actor = context.requireActor();
    const card: ConfirmCard = { ...this.cards.open(payload.payment_method.card), savedCardId: null };
    const prepared = await context.transaction(async (tx) => {
      const snapshot = await this.flow.snapshot(tx.manager, payload.payment_intent_id, { accountId: actor.account_id, lock: true });
      return this.start(tx, snapshot, context.commandId, card, {
        ip_address: payload.ip_address,
        browser_info: payload.browser_info === undefined ? undefined : JSON.stringify(payload.browser_info),
        return_url: payload.return_url,
      });
    });
    return this.authorization.run(context.complete, prepared, card);
  }

  /** Decide and record: shared with the hosted checkout page's confirm. */
  async start(
    tx: TransactionContext,
    snapshot: Snapshot,
    commandId: string | null,
    card: ConfirmCard,
    changes: IntentChanges,
  ): Promise<Snapshot> {
    const resumed = snapshot.attempt !== null && commandId !== null && snapshot.attempt.commandId === commandId;
    if (resumed) return snapshot;
    intentMachine.assertTransition(snapshot.intent.status, 'CONFIRM', snapshot.intent.id);
    const attempt = {
      commandId,
      card: card.stored,
      savedCardId: card.savedCardId,
      autoCapture: card.autoCapture,
      threeDsAction: card.threeDsAction,
      processor: this.connector.name,
    };
    return this.flow.startAttempt(tx, snapshot, attempt, changes);
  }
}
