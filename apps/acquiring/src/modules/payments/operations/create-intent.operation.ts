import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AcquiringEvents, Actor, CommandEnvelope, PaymentIntentView } from '@paygrid/contracts';
import { newId } from '@paygrid/ids';
import { requireActor } from '../../../common/actor';
import { PayloadReader } from '../../../common/payload-reader';
import { replayOf, Tx, UnitOfWork } from '../../../common/unit-of-work';
import { CardForPayment, CardTransport } from '../../cards/card-transport';
import { CARD_CONNECTOR, CardConnector } from '../../connectors/connector';
import { CustomerService } from '../../customers/customer.service';
import { Authorization } from '../authorization';
import { PaymentFlow, Snapshot } from '../payment-flow';
import { CreateIntentInput, readCreateIntent } from '../payment-payloads';
import { PaymentEvents } from '../payment.events';
import { PaymentRepository } from '../payment.repository';

/**
 * Create a PaymentIntent (spec 4.1). Without a card: one ledger-guarded transaction. With a card the
 * intent is confirmed at once: validate (the card opened and checked first: a bad number is a 400 that
 * records nothing) → record the intent and its INITIATED attempt → authorise → apply the answer.
 * A retry of the command resumes where the first run stopped; a completed one replays its reply.
 */
export const CLIENT_SECRET_TTL_MS = 60 * 60 * 1000;

export function newClientSecret(intentId: string): string {
  return `${intentId}_secret_${randomBytes(18).toString('base64url')}`;
}

@Injectable()
export class CreateIntentOperation {
  constructor(
    private readonly unit: UnitOfWork,
    private readonly flow: PaymentFlow,
    private readonly payments: PaymentRepository,
    private readonly customers: CustomerService,
    private readonly events: PaymentEvents,
    private readonly cards: CardTransport,
    private readonly authorization: Authorization,
    @Inject(CARD_CONNECTOR) private readonly connector: CardConnector,
  ) {}

  async execute(command: CommandEnvelope): Promise<PaymentIntentView> {
    const actor = requireActor(command);
    const input = this.validate(command);
    const card = input.card ? this.cards.open(input.card) : undefined;
    const stored = await this.unit.storedReply<PaymentIntentView>(command.command_id);
    if (stored) return replayOf(stored);

    if (!card) {
      const { result } = await this.unit.once(command, 'payment_intent', async (tx) =>
        this.flow.view(await this.record(tx, command, actor, input, undefined)),
      );
      return result;
    }
    const prepared = await this.unit.transaction('payment_intent', (tx) => this.record(tx, command, actor, input, card));
    return this.authorization.run(command, prepared, card);
  }

  validate(command: CommandEnvelope): CreateIntentInput {
    return readCreateIntent(PayloadReader.of(command), command.payload);
  }

  /** Load (the customer) → decide → update: the intent, its first attempt, their events. */
  private async record(
    tx: Tx,
    command: CommandEnvelope,
    actor: Actor,
    input: CreateIntentInput,
    card: CardForPayment | undefined,
  ): Promise<Snapshot> {
    const customer = await this.customers.resolveForIntent(tx.manager, actor.account_id, {
      customer_id: input.customerId,
      customer: input.customerId ? undefined : input.customer,
    });
    const id = newId('pi');
    const { intent, created } = await this.payments.insertIntent(tx.manager, {
      id,
      accountId: actor.account_id,
      masterAccountId: actor.master_account_id,
      createCommandId: command.command_id,
      amountMinor: input.amountMinor,
      currency: input.currency,
      status: 'REQUIRES_PAYMENT_METHOD',
      description: input.description,
      merchantOrderId: input.merchantOrderId,
      returnUrl: input.returnUrl,
      metadata: input.metadata,
      paymentOrders: input.paymentOrders ?? null,
      customerId: customer?.id ?? null,
      clientSecret: newClientSecret(id),
      clientSecretExpiresAt: new Date(Date.now() + CLIENT_SECRET_TTL_MS),
      ipAddress: input.ipAddress ?? null,
      browserInfo: input.browserInfo ?? null,
    });
    if (!created) return this.flow.complete(tx.manager, intent); // a retry: the first run recorded the rest
    const snapshot: Snapshot = { intent, attempt: null, customer };
    await this.events.intent(tx.manager, AcquiringEvents.intentCreated, intent, null, customer);
    if (card) {
      return this.flow.startAttempt(tx, snapshot, {
        commandId: command.command_id,
        card: card.stored,
        savedCardId: null,
        autoCapture: card.autoCapture,
        threeDsAction: card.threeDsAction,
        processor: this.connector.name,
      });
    }
    return snapshot;
  }
}
