import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AcquiringCommands, CommandEnvelope, HostedSessionView, PaymentIntentView } from '@paygrid/contracts';
import { formatAmount } from '@paygrid/money';
import { CommandHandler, Errors, Executor } from '@paygrid/platform';
import { AcquiringErrors } from '../../common/acquiring-errors';
import { PayloadReader } from '../../common/payload-reader';
import { UnitOfWork } from '../../common/unit-of-work';
import { CardTransport } from '../cards/card-transport';
import { CARD_CONNECTOR, CardConnector } from '../connectors/connector';
import { CustomerService } from '../customers/customer.service';
import { Authorization } from '../payments/authorization';
import { ConfirmCard, ConfirmIntentOperation } from '../payments/operations/confirm-intent.operation';
import { PaymentFlow, Snapshot } from '../payments/payment-flow';
import { readCard } from '../payments/payment-payloads';
import { PaymentPresenter } from '../payments/payment.presenter';
import { PaymentRepository } from '../payments/payment.repository';

/**
 * What the gateway's hosted pages ask for. No merchant actor: the intent's client_secret (valid 60
 * minutes) is the credential, and what comes back is only what a shopper may see: the amount, the
 * status, and the customer's saved cards masked.
 */
@Injectable()
export class HostedService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly unit: UnitOfWork,
    private readonly payments: PaymentRepository,
    private readonly flow: PaymentFlow,
    private readonly customers: CustomerService,
    private readonly cards: CardTransport,
    private readonly confirm: ConfirmIntentOperation,
    private readonly authorization: Authorization,
    private readonly presenter: PaymentPresenter,
    @Inject(CARD_CONNECTOR) private readonly connector: CardConnector,
  ) {}

  @CommandHandler(AcquiringCommands.hostedSession)
  async session(command: CommandEnvelope): Promise<HostedSessionView> {
    const reader = PayloadReader.of(command);
    const secret = readSecret(reader);
    reader.done();
    return this.present(await this.bySecret(this.dataSource, secret));
  }

  /** Pay with a new card (sealed by the gateway) or one of the customer's saved cards. */
  @CommandHandler(AcquiringCommands.hostedConfirm)
  async pay(command: CommandEnvelope): Promise<HostedSessionView> {
    const reader = PayloadReader.of(command);
    const secret = readSecret(reader);
    const newCard = readCard(reader, 'payment_method.card');
    const savedCardId = reader.string('saved_card_id', { max: 36 });
    reader.done();
    if ((newCard === undefined) === (savedCardId === undefined)) {
      throw Errors.invalidRequest('give exactly one of payment_method.card and saved_card_id');
    }
    const opened = newCard ? this.cards.open(newCard) : undefined;

    const prepared = await this.unit.transaction('payment_intent', async (tx) => {
      const found = await this.bySecret(tx.manager, secret);
      const snapshot = await this.flow.snapshot(tx.manager, found.intent.id, { lock: true });
      const card: ConfirmCard = opened
        ? { ...opened, savedCardId: null }
        : await this.savedCard(tx.manager, snapshot, savedCardId ?? '');
      return { snapshot: await this.confirm.start(tx, snapshot, null, card, {}), card };
    });
    const view = await this.authorization.run({ command_id: null, type: command.type }, prepared.snapshot, prepared.card);
    return this.fromView(view);
  }

  /** The shopper's answer on the 3-D Secure challenge page. */
  @CommandHandler(AcquiringCommands.hostedThreeDs)
  async threeDs(command: CommandEnvelope): Promise<HostedSessionView> {
    const reader = PayloadReader.of(command);
    const secret = readSecret(reader);
    const outcome = reader.oneOf('outcome', ['approve', 'fail'] as const, true);
    reader.done();
    const snapshot = await this.bySecret(this.dataSource, secret);
    const attempt = snapshot.attempt;
    if (!attempt || attempt.status !== 'AUTHENTICATION_REDIRECTED' || !attempt.processorReference) {
      throw AcquiringErrors.unexpectedState(
        `cannot authenticate PaymentAttempt: status is ${attempt?.status ?? `none (intent ${snapshot.intent.status})`}`,
      );
    }
    const result = await this.connector.completeAuthentication({
      processorReference: attempt.processorReference,
      approved: outcome === 'approve',
      capture: attempt.autoCapture,
      previous: attempt.authenticationData,
    });
    const view = await this.authorization.apply({ command_id: null, type: command.type }, snapshot.intent.id, attempt.id, result, null);
    return this.fromView(view);
  }

  private async bySecret(executor: Executor, secret: string): Promise<Snapshot> {
    const intent = await this.payments.findIntentByClientSecret(executor, secret);
    if (!intent || intent.clientSecretExpiresAt.getTime() < Date.now()) throw AcquiringErrors.clientSecretInvalid();
    return this.flow.complete(executor, intent);
  }

  private async savedCard(executor: Executor, snapshot: Snapshot, savedCardId: string): Promise<ConfirmCard> {
    if (!snapshot.intent.customerId) throw AcquiringErrors.notFound('saved_card');
    const { plain, stored } = await this.customers.openSavedCard(executor, savedCardId, snapshot.intent.customerId);
    return { plain, stored, autoCapture: true, threeDsAction: null, savedCardId };
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

function readSecret(reader: PayloadReader): string {
  return reader.string('client_secret', { required: true, max: 200 });
}
