import { Inject, Injectable } from '@nestjs/common';
import { ConfirmIntentPayload, PaymentIntentView } from '@paygrid/contracts';
import { Errors, Executor, StagedContext, TransactionContext } from '@paygrid/platform';
import { AcquiringErrors } from '../../../common/acquiring-errors';
import { CardForPayment, CardTransport } from '../../cards/card-transport';
import { CARD_CONNECTOR, CardConnector } from '../../connectors/connector';
import { CustomerService } from '../../customers/customer.service';
import { Authorization } from '../authorization';
import { PaymentFlow, Snapshot } from '../payment-flow';
import { intentMachine } from '../payment-intent.states';
import { IntentChanges } from '../payment.repository';

/**
 * Confirm a PaymentIntent (wire-compat §9.4), from REQUIRES_PAYMENT_METHOD only (a new attempt after a
 * decline included). Same phases as create: validate (card first) → load the intent under a row lock →
 * decide (the state table guards; a retry of this command resumes its own attempt) → record the
 * INITIATED attempt → authorise outside the transaction → apply the answer.
 *
 * `payment_method` is optional: the SDK sends `{}` when the caller leaves it out. Then the intent is
 * confirmed with the card it is already attached to (the saved card its latest attempt used), else its
 * customer's most recently saved card (Card on File); with neither, a 400 naming payment_method.
 */
export interface ConfirmCard extends Pick<CardForPayment, 'plain' | 'stored' | 'autoCapture' | 'threeDsAction'> {
  savedCardId: string | null;
}

@Injectable()
export class ConfirmIntentOperation {
  constructor(
    private readonly flow: PaymentFlow,
    private readonly cards: CardTransport,
    private readonly customers: CustomerService,
    private readonly authorization: Authorization,
    @Inject(CARD_CONNECTOR) private readonly connector: CardConnector,
  ) {}

  async execute(context: StagedContext, payload: ConfirmIntentPayload): Promise<PaymentIntentView> {
    const actor = context.requireActor();
    const given = payload.payment_method ? this.cards.open(payload.payment_method.card) : undefined;
    const prepared = await context.transaction(async (tx) => {
      const snapshot = await this.flow.snapshot(tx.manager, payload.payment_intent_id, { accountId: actor.account_id, lock: true });
      const card: ConfirmCard = given ? { ...given, savedCardId: null } : await this.cardOnFile(tx.manager, snapshot, context.commandId);
      const started = await this.start(tx, snapshot, context.commandId, card, {
        ip_address: payload.ip_address,
        browser_info: payload.browser_info === undefined ? undefined : JSON.stringify(payload.browser_info),
        return_url: payload.return_url,
      });
      return { snapshot: started, card };
    });
    return this.authorization.run(context.complete, prepared.snapshot, prepared.card);
  }

  /** Decide and record: shared with the hosted checkout page's confirm. */
  async start(
    tx: TransactionContext,
    snapshot: Snapshot,
    commandId: string | null,
    card: ConfirmCard,
    changes: IntentChanges,
  ): Promise<Snapshot> {
    if (this.resumes(snapshot, commandId)) return snapshot;
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

  /** One of the intent customer's saved cards, ready to charge (no CVC: saved cards are charged without). */
  async savedCard(executor: Executor, snapshot: Snapshot, savedCardId: string, autoCapture = true): Promise<ConfirmCard> {
    if (!snapshot.intent.customerId) throw AcquiringErrors.notFound('saved_card');
    const { plain, stored } = await this.customers.openSavedCard(executor, savedCardId, snapshot.intent.customerId);
    return { plain, stored, autoCapture, threeDsAction: null, savedCardId };
  }

  /**
   * The card a confirm without payment_method uses. The state is checked first, so a confirm of an intent
   * that cannot be confirmed is refused for its status, not for a missing card.
   */
  private async cardOnFile(executor: Executor, snapshot: Snapshot, commandId: string | null): Promise<ConfirmCard> {
    const { intent, attempt } = snapshot;
    if (!this.resumes(snapshot, commandId)) intentMachine.assertTransition(intent.status, 'CONFIRM', intent.id);
    // Newest first. The attached card counts only while it is still the customer's (an update may have
    // changed the intent's customer since that attempt).
    const cards = intent.customerId ? await this.customers.listCards(executor, intent.customerId) : [];
    const attached = cards.find((card) => card.id === attempt?.savedCardId);
    if (attached && attempt) return this.savedCard(executor, snapshot, attached.id, attempt.autoCapture);
    if (cards.length > 0) return this.savedCard(executor, snapshot, cards[0].id);
    throw Errors.invalidRequest(
      'payment_method: is required: this PaymentIntent has no card on file (no saved card of its customer) to confirm with',
    );
  }

  private resumes(snapshot: Snapshot, commandId: string | null): boolean {
    return snapshot.attempt !== null && commandId !== null && snapshot.attempt.commandId === commandId;
  }
}
