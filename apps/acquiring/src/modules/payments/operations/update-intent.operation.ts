import { Injectable } from '@nestjs/common';
import { AcquiringEvents, CommandEnvelope, CustomerInput, crossFieldProblems, PaymentIntentView } from '@paygrid/contracts';
import { isSupportedCurrency } from '@paygrid/money';
import { Errors } from '@paygrid/platform';
import { requireActor } from '../../../common/actor';
import { PayloadReader, requireWireAmount } from '../../../common/payload-reader';
import { UnitOfWork } from '../../../common/unit-of-work';
import { CustomerService } from '../../customers/customer.service';
import { PaymentFlow } from '../payment-flow';
import { intentMachine } from '../payment-intent.states';
import { LIMITS, readIntentId } from '../payment-payloads';
import { PaymentEvents } from '../payment.events';
import { IntentChanges } from '../payment.repository';

/**
 * Update a PaymentIntent (wire-compat §9.3: POST /v2/payment_intents/{id}) while it still waits for a
 * payment method. validate → load under the row lock → decide (the state table: UPDATE from
 * REQUIRES_PAYMENT_METHOD; a new amount is checked against the new or current currency) → update and
 * announce acquiring.payment_intent.updated.
 */
@Injectable()
export class UpdateIntentOperation {
  constructor(
    private readonly unit: UnitOfWork,
    private readonly flow: PaymentFlow,
    private readonly customers: CustomerService,
    private readonly events: PaymentEvents,
  ) {}

  async execute(command: CommandEnvelope): Promise<PaymentIntentView> {
    const actor = requireActor(command);
    const reader = PayloadReader.of(command);
    const intentId = readIntentId(reader);
    const amount = reader.string('amount');
    const currency = reader.currency('currency', false);
    const customerId = reader.string('customer_id', { max: LIMITS.customerId });
    const customer = reader.object<CustomerInput>('customer');
    const metadata = reader.stringMap('metadata');
    const paymentOrders = reader.object('payment_orders');
    const text = {
      merchant_order_id: reader.string('merchant_order_id', { max: LIMITS.merchantOrderId }),
      description: reader.string('description', { max: LIMITS.description }),
      return_url: reader.string('return_url', { max: LIMITS.returnUrl }),
    };
    reader.add(crossFieldProblems({ metadata }));
    reader.done();

    const { result } = await this.unit.once(command, 'payment_intent', async (tx) => {
      const snapshot = await this.flow.snapshot(tx.manager, intentId, { accountId: actor.account_id, lock: true });
      intentMachine.assertTransition(snapshot.intent.status, 'UPDATE', intentId);
      const newCurrency = currency ?? snapshot.intent.currency;
      if (!isSupportedCurrency(newCurrency)) throw Errors.invalidRequest('currency: is not a supported currency');
      const changes: IntentChanges = {
        ...text,
        currency: currency,
        amount_minor:
          amount !== undefined
            ? requireWireAmount('amount', amount, newCurrency)
            : currency !== undefined
              ? requireWireAmount('amount', this.flow.view(snapshot).amount, newCurrency)
              : undefined,
        metadata: metadata === undefined ? undefined : JSON.stringify(metadata),
        payment_orders: paymentOrders === undefined ? undefined : JSON.stringify(paymentOrders),
      };
      let nextCustomer = snapshot.customer;
      if (customerId !== undefined || customer !== undefined) {
        nextCustomer = await this.customers.resolveForIntent(tx.manager, actor.account_id, {
          customer_id: customerId,
          customer: customerId ? undefined : customer,
        });
        changes.customer_id = nextCustomer?.id ?? null;
      }
      const next = await this.flow.syncIntent(tx, { ...snapshot, customer: nextCustomer }, changes, 'UPDATE');
      await this.events.intent(tx.manager, AcquiringEvents.intentUpdated, next.intent, next.attempt, next.customer);
      return this.flow.view(next);
    });
    return result;
  }
}
