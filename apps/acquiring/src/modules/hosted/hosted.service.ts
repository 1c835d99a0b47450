import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HostedConfirmPayload, HostedSessionPayload, HostedSessionView, HostedThreeDsPayload, PaymentIntentView } from '@paygrid/contracts';
import { formatAmount } from '@paygrid/money';
import { Executor, StagedContext } from '@paygrid/platform';
import { AcquiringErrors } from '../../common/acquiring-errors';
import { CardTransport } from '../cards/card-transport';
import { CARD_CONNECTOR, CardConnector } from '../connectors/connector';
import { CustomerService } from '../customers/customer.service';
import { Authorization } from '../payments/authorization';
import { ConfirmCard, ConfirmIntentOperation } from '../payments/operations/confirm-intent.operation';
import { PaymentFlow, Snapshot } from '../payments/payment-flow';
import { PaymentPresenter } from '../payments/payment.presenter';
import { PaymentRepository } from '../payments/payment.repository';
import { PaymentIntent } from '../payments/payment.types';

/**
 * What the gateway's hosted pages ask for. No merchant actor: the intent's client_secret (valid 60
 * minutes) is the credential, and what comes back is only what a shopper may see: the amount, the
 * status, and the customer's saved cards masked.
 */
@Injectable()
export class HostedService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly payments: PaymentRepository,
    private readonly flow: PaymentFlow,
    private readonly customers: CustomerService,
    private readonly cards: CardTransport,
    private readonly confirm: ConfirmIntentOperation,
    private readonly authorization: Authorization,
    private readonly presenter: PaymentPresenter,
    @Inject(CARD_CONNECTOR) private readonly connector: CardConnector,
  ) {}

  async session(payload: HostedSessionPayload): Promise<HostedSessionView> {
    const intent = await this.intentBySecret(this.dataSource, payload.client_secret);
    return this.present(await this.flow.complete(this.dataSource, intent));
  }

  /** Pay with a new card (sealed by the gateway) or one of the customer's saved cards. */
  async pay(context: StagedContext, payload: HostedConfirmPayload): Promise<HostedSessionView> {
    const newCard = payload.payment_method?.card;
    if ((newCard === undefined) === (payload.saved_card_id === undefined)) throw AcquiringErrors.exactlyOneCard();
    const opened = newCard ? this.cards.open(newCard) : undefined;
    const prepared = await context.transaction(async (tx) => {
      const intent = await this.intentBySecret(tx.manager, payload.client_secret);
      const snapshot = await this.flow.snapshot(tx.manager, intent.id, { lock: true });
      const card: ConfirmCard = opened
        ? { ...opened, savedCardId: null }
        : await this.confirm.savedCard(tx.manager, snapshot, payload.saved_card_id ?? '');
      return { snapshot: await this.confirm.start(tx, snapshot, context.commandId, card, {}), card };
    });
    return this.fromView(await this.authorization.run(context.complete, prepared.snapshot, prepared.card));
  }

  /** The shopper's answer on the 3-D Secure challenge page. */
  async threeDs(context: StagedContext, payload: HostedThreeDsPayload): Promise<HostedSessionView> {
    const snapshot = await this.flow.complete(this.dataSource, await this.intentBySecret(this.dataSource, payload.client_secret));
    const attempt = snapshot.attempt;
    if (!attempt || attempt.status !== 'AUTHENTICATION_REDIRECTED' || !attempt.processorReference) {
      throw AcquiringErrors.unexpectedState(
        `cannot authenticate PaymentAttempt: status is ${attempt?.status ?? `none (intent ${snapshot.intent.status})`}`,
      );
    }
    const result = await this.connector.completeAuthentication({
      processorReference: attempt.processorReference,
      approved: payload.outcome === 'approve',
      capture: attempt.autoCapture,
      previous: attempt.authenticationData,
    });
    return this.fromView(await this.authorization.apply(context.complete, snapshot, result, null));
  }

  private async intentBySecret(executor: Executor, secret: string): Promise<PaymentIntent> {
    const intent = await this.payments.findIntentByClientSecret(executor, secret);
    if (!intent || intent.clientSecretExpiresAt.getTime() < Date.now()) throw AcquiringErrors.clientSecretInvalid();
    return intent;
  }

  private async present(snapshot: Snapshot): Promise<HostedSessionView> {
    const { intent, attempt } = snapshot;
    const saved = intent.customerId ? await this.customers.listCards(this.dataSource, intent.customerId) : [];
    const view = this.presenter.intent(intent, attempt, null);
    return {
      payment_intent_id: intent.id,
      amount: formatAmount(intent.amountMinor, intent.currency),
      currency: intent.currency,
      description: intent.description,
      intent_status: intent.status,
      return_url: intent.returnUrl,
      next_action: view.next_action,
      saved_cards: saved.map((card) => this.presenter.savedCard(card)),
      latest_attempt_status: attempt?.status ?? null,
      failure_code: attempt?.failureCode ?? '',
    };
  }

  private async fromView(view: PaymentIntentView): Promise<HostedSessionView> {
    return this.present(await this.flow.snapshot(this.dataSource, view.payment_intent_id));
  }
}
