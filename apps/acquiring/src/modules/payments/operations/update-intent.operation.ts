import { Injectable } from '@nestjs/common';
import { AcquiringEvents, Actor, PaymentIntentView, UpdateIntentPayload } from '@paygrid/contracts';
import { TransactionContext } from '@paygrid/platform';
import { requireAmount } from '../../../common/wire-amount';
import { CustomerService } from '../../customers/customer.service';
import { PaymentFlow } from '../payment-flow';
import { intentMachine } from '../payment-intent.states';
import { PaymentEvents } from '../payment.events';
import { IntentChanges } from '../payment.repository';

/**
 * Update a PaymentIntent (wire-compat §9.3: POST /v2/payment_intents/{id}) while it still waits for a
 * payment method. validate → load under the row lock → decide (the state table: UPDATE from
 * REQUIRES_PAYMENT_METHOD; a new amount is checked against the new or current currency, and a new
 * currency re-reads the current amount in it) → update and announce acquiring.payment_intent.updated.
 */
@Injectable()
export class UpdateIntentOperation {
  constructor(
    private readonly flow: PaymentFlow,
    private readonly customers: CustomerService,
    private readonly events: PaymentEvents,
  ) {}

  async execute(tx: TransactionContext, actor: Actor, payload: UpdateIntentPayload): Promise<PaymentIntentView> {
    const snapshot = await this.flow.snapshot(tx.manager, payload.payment_intent_id, { accountId: actor.account_id, lock: true });
    intentMachine.assertTransition(snapshot.intent.status, 'UPDATE', payload.payment_intent_id);
    const currency = payload.currency ?? snapshot.intent.currency;
    const amount = payload.amount ?? (payload.currency !== undefined ? this.flow.view(snapshot).amount : undefined);
    const changes: IntentChanges = {
      merchant_order_id: payload.merchant_order_id,
      description: payload.description,
      return_url: payload.return_url,
      currency: payload.currency,
      amount_minor: amount === undefined ? undefined : requireAmount('amount', amount, currency),
      metadata: payload.metadata === undefined ? undefined : JSON.stringify(payload.metadata),
      payment_orders: payload.payment_orders === undefined ? undefined : JSON.stringify(payload.payment_orders),
    };
    let customer = snapshot.customer;
    if (payload.customer_id !== undefined || payload.customer !== undefined) {
      customer = await this.customers.resolveForIntent(tx.manager, actor.account_id, {
        customer_id: payload.customer_id,
        customer: payload.customer_id ? undefined : payload.customer,
      });
      changes.customer_id = customer?.id ?? null;
    }
    const next = await this.flow.syncIntent(tx, { ...snapshot, customer }, changes, 'UPDATE');
    await this.events.intent(tx.manager, AcquiringEvents.intentUpdated, next.intent, next.attempt, next.customer);
    return this.flow.view(next);
  }
}
