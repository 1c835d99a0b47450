import { Inject, Injectable } from '@nestjs/common';
import { CommandEnvelope, PaymentIntentView } from '@paygrid/contracts';
import { Errors } from '@paygrid/platform';
import { requireActor } from '../../../common/actor';
import { PayloadReader } from '../../../common/payload-reader';
import { replayOf, Tx, UnitOfWork } from '../../../common/unit-of-work';
import { CardForPayment, CardTransport } from '../../cards/card-transport';
import { CARD_CONNECTOR, CardConnector } from '../../connectors/connector';
import { Authorization } from '../authorization';
import { PaymentFlow, Snapshot } from '../payment-flow';
import { intentMachine } from '../payment-intent.states';
import { readConfirmIntent } from '../payment-payloads';
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
    private readonly unit: UnitOfWork,
    private readonly flow: PaymentFlow,
    private readonly cards: CardTransport,
    private readonly authorization: Authorization,
    @Inject(CARD_CONNECTOR) private readonly connector: CardConnector,
  ) {}

  async execute(command: CommandEnvelope): Promise<PaymentIntentView> {
    const actor = requireActor(command);
    const input = readConfirmIntent(PayloadReader.of(command), command.payload);
    if (!input.card) throw Errors.invalidRequest('payment_method.card: is required to confirm a PaymentIntent');
    const card: ConfirmCard = { ...this.cards.open(input.card), savedCardId: null };
    const stored = await this.unit.storedReply<PaymentIntentView>(command.command_id);
    if (stored) return replayOf(stored);

    const prepared = await this.unit.transaction('payment_intent', async (tx) => {
      const snapshot = await this.flow.snapshot(tx.manager, input.intentId, { accountId: actor.account_id, lock: true });
      return this.start(tx, snapshot, command.command_id, card, {
        ip_address: input.ipAddress,
        browser_info: input.browserInfo === undefined ? undefined : JSON.stringify(input.browserInfo),
        return_url: input.returnUrl,
      });
    });
    return this.authorization.run(command, prepared, card);
  }

  /** Decide and record: shared with the hosted checkout page's confirm. */
  async start(tx: Tx, snapshot: Snapshot, commandId: string | null, card: ConfirmCard, changes: IntentChanges): Promise<Snapshot> {
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
