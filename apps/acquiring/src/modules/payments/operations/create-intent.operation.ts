import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Actor, CommandReply, CreateIntentPayload, PaymentIntentView } from '@paygrid/contracts';
import { resultOrThrow, StagedContext, storedCommandReply, TransactionContext } from '@paygrid/platform';
import { newId } from '@paygrid/ids';
import { requireAmount } from '../../../common/wire-amount';
import { CardForPayment, CardTransport } from '../../cards/card-transport';
import { CARD_CONNECTOR, CardConnector } from '../../connectors/connector';
import { CustomerService } from '../../customers/customer.service';
import { Authorization } from '../authorization';
import { NewAttemptInput, PaymentFlow, Snapshot } from '../payment-flow';
import { Customer } from '../../customers/customer.types';

/**
 * Create a PaymentIntent (spec 4.1). Without a card: one ledger-guarded transaction. With a card the
 * intent is confirmed at once: validate (the card opened and checked first: a bad number is a 400 that
 * records nothing) → record the intent and its INITIATED attempt (each row written once) → authorise →
 * apply the answer. A retry of the command resumes where the first run stopped; a completed one gets
 * its stored reply: the handler finds it itself (`findsStoredReply`, payment.commands.ts), so a first
 * run pays no standalone ledger read (see `prepare`).
 */
export const CLIENT_SECRET_TTL_MS = 60 * 60 * 1000;

export function newClientSecret(intentId: string): string {
  return `${intentId}_secret_${randomBytes(18).toString('base64url')}`;
}

@Injectable()
export class CreateIntentOperation {
  constructor(
    private readonly flow: PaymentFlow,
    private readonly customers: CustomerService,
    private readonly cards: CardTransport,
    private readonly authorization: Authorization,
    @Inject(CARD_CONNECTOR) private readonly connector: CardConnector,
  ) {}

  async execute(context: StagedContext, payload: CreateIntentPayload): Promise<PaymentIntentView> {
    const actor = context.requireActor();
    const card = payload.payment_method ? this.cards.open(payload.payment_method.card) : undefined;
    if (!card) {
      const { result } = await context.complete(async (tx) =>
        this.flow.view(await this.record(tx, context.commandId, actor, payload, undefined)),
      );
      return result;
    }
    if (!namesCustomer(payload)) {
      // The common case: the first record is one statement (no customer to resolve or insert first).
      const recorded = await this.flow.createIntentAlone(
        context.statement,
        this.newIntent(context.commandId, actor, payload, null),
        this.firstAttempt(context.commandId, card),
      );
      if (recorded) return this.authorization.run(context.complete, recorded, card, true);
      // A repeat of the command: the path below finds the first run's intent, or its stored reply.
    }
    const prepared = await context.transaction((tx) => this.prepare(tx, context.commandId, actor, payload, card));
    if ('stored' in prepared) return resultOrThrow(prepared.stored);
    // Rows this run has just inserted are known exactly; a repeat's were read, and are applied under a lock.
    return this.authorization.run(context.complete, prepared, card, prepared.created);
  }

  /**
   * Transaction 1 of a card create, which also answers a repeat of a completed command with its stored
   * reply. The intent's insert is keyed by the command id: a repeat's insert finds the first run's
   * intent (created: false), and only then is the ledger read. A named customer is resolved before that
   * insert (an inline one is even inserted, and a saved one could have been deleted since), so with one
   * the ledger is read first, as the pipeline used to. The card-less path needs neither: its one
   * transaction ends with the ledger row, whose insert finds the stored reply and rolls everything back.
   */
  private async prepare(
    tx: TransactionContext,
    commandId: string | null,
    actor: Actor,
    payload: CreateIntentPayload,
    card: CardForPayment,
  ): Promise<(Snapshot & { created: boolean }) | { stored: CommandReply<PaymentIntentView> }> {
    const withCustomer = namesCustomer(payload);
    const early = withCustomer ? await storedCommandReply<PaymentIntentView>(tx.manager, commandId) : undefined;
    if (early) return { stored: early };
    const recorded = await this.record(tx, commandId, actor, payload, card);
    if (recorded.created) return recorded;
    const stored = withCustomer ? undefined : await storedCommandReply<PaymentIntentView>(tx.manager, commandId);
    return stored ? { stored } : recorded;
  }

  /** Load (the customer) → decide → update: the intent, its first attempt, their events. */
  private async record(
    tx: TransactionContext,
    commandId: string | null,
    actor: Actor,
    payload: CreateIntentPayload,
    card: CardForPayment | undefined,
  ): Promise<Snapshot & { created: boolean }> {
    const customer = await this.customers.resolveForIntent(tx.manager, actor.account_id, {
      customer_id: payload.customer_id,
      customer: payload.customer_id ? undefined : payload.customer,
    });
    return this.flow.createIntent(tx, this.newIntent(commandId, actor, payload, customer), customer, card ? this.firstAttempt(commandId, card) : null);
  }

  private newIntent(commandId: string | null, actor: Actor, payload: CreateIntentPayload, customer: Customer | null) {
    const id = newId('pi');
    return {
      id,
      accountId: actor.account_id,
      masterAccountId: actor.master_account_id,
      createCommandId: commandId,
      amountMinor: requireAmount('amount', payload.amount, payload.currency),
      currency: payload.currency,
      description: payload.description,
      merchantOrderId: payload.merchant_order_id,
      returnUrl: payload.return_url,
      metadata: payload.metadata ?? {},
      paymentOrders: payload.payment_orders ?? null,
      customerId: customer?.id ?? null,
      clientSecret: newClientSecret(id),
      clientSecretExpiresAt: new Date(Date.now() + CLIENT_SECRET_TTL_MS),
      ipAddress: payload.ip_address ?? null,
      browserInfo: payload.browser_info ?? null,
    };
  }

  private firstAttempt(commandId: string | null, card: CardForPayment): NewAttemptInput {
    return {
      commandId,
      card: card.stored,
      savedCardId: null,
      autoCapture: card.autoCapture,
      threeDsAction: card.threeDsAction,
      processor: this.connector.name,
    };
  }
}

/** A named customer is resolved (an inline one inserted) before the intent, in its transaction. */
function namesCustomer(payload: CreateIntentPayload): boolean {
  return Boolean(payload.customer_id || payload.customer);
}
