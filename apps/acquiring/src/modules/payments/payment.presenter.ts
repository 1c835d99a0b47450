import { Inject, Injectable } from '@nestjs/common';
import { CustomerSnapshot, NextAction, PaymentAttemptView, PaymentIntentView, SavedCardView } from '@paygrid/contracts';
import { formatAmount } from '@paygrid/money';
import { ACQUIRING_CONFIG, AcquiringConfig } from '../../config';
import { Customer, SavedCard } from '../customers/customer.types';
import { PaymentAttempt, PaymentIntent } from './payment.types';

/**
 * Domain → wire (spec 2.1–2.4, wire-compat §9.6–9.7): decimal strings in the currency's exponent,
 * ISO 8601 times, empty strings where the spec has "empty when none", the card masked. Events carry the
 * same views without the client_secret (a webhook receiver has no use for it).
 */
const iso = (value: Date | null): string => (value === null ? '' : value.toISOString());

export const HOSTED_THREE_DS_PATH = '/api/hosted/three_ds';

@Injectable()
export class PaymentPresenter {
  private readonly gatewayUrl: string;

  constructor(@Inject(ACQUIRING_CONFIG) config: Pick<AcquiringConfig, 'GATEWAY_PUBLIC_URL'>) {
    this.gatewayUrl = config.GATEWAY_PUBLIC_URL.replace(/\/+$/, '');
  }

  intent(intent: PaymentIntent, attempt: PaymentAttempt | null, customer: Customer | null): PaymentIntentView {
    const view: PaymentIntentView = {
      payment_intent_id: intent.id,
      amount: formatAmount(intent.amountMinor, intent.currency),
      currency: intent.currency,
      intent_status: intent.status,
      description: intent.description,
      available_payment_method_types: ['card'],
      captured_amount: formatAmount(intent.capturedAmountMinor, intent.currency),
      customer_id: intent.customerId ?? '',
      cancellation_reason: intent.cancellationReason ?? '',
      client_secret: intent.clientSecret,
      merchant_order_id: intent.merchantOrderId,
      metadata: intent.metadata,
      next_action: this.nextAction(intent, attempt),
      return_url: intent.returnUrl,
      create_time: iso(intent.createdAt),
      complete_time: iso(intent.completedAt),
      update_time: iso(intent.updatedAt),
      latest_payment_attempt: attempt ? this.attempt(attempt) : null,
    };
    if (customer) view.customer = customerSnapshot(customer);
    if (intent.cancelledAt) view.cancel_time = iso(intent.cancelledAt);
    if (intent.paymentOrders) view.payment_orders = intent.paymentOrders;
    return view;
  }

  /** The intent as events carry it. */
  intentForEvent(intent: PaymentIntent, attempt: PaymentAttempt | null, customer: Customer | null): PaymentIntentView {
    const { client_secret: _secret, ...view } = this.intent(intent, attempt, customer);
    return view;
  }

  attempt(attempt: PaymentAttempt): PaymentAttemptView {
    return {
      attempt_id: attempt.id,
      payment_intent_id: attempt.intentId,
      amount: formatAmount(attempt.amountMinor, attempt.currency),
      currency: attempt.currency,
      captured_amount: formatAmount(attempt.capturedAmountMinor, attempt.currency),
      refunded_amount: formatAmount(attempt.refundedAmountMinor, attempt.currency),
      attempt_status: attempt.status,
      create_time: iso(attempt.createdAt),
      update_time: iso(attempt.updatedAt),
      complete_time: iso(attempt.completedAt),
      cancellation_reason: attempt.cancellationReason,
      auth_code: attempt.authCode,
      arn: attempt.arn,
      rrn: attempt.rrn,
      advice_code: attempt.adviceCode,
      authentication_data: attempt.authenticationData,
      payment_method: { type: 'card', card: { ...attempt.card, auto_capture: attempt.autoCapture } },
      failure_code: attempt.failureCode,
      failure_message: attempt.failureMessage,
    };
  }

  savedCard(card: SavedCard): SavedCardView {
    return {
      saved_card_id: card.id,
      card_number: card.maskedNumber,
      brand: card.brand,
      last4: card.last4,
      expiry_month: card.expiryMonth,
      expiry_year: card.expiryYear,
      card_name: card.cardName,
    };
  }

  /** Where the shopper completes 3-D Secure: the gateway's hosted challenge page. */
  threeDsUrl(intent: PaymentIntent): string {
    return `${this.gatewayUrl}${HOSTED_THREE_DS_PATH}?client_secret=${encodeURIComponent(intent.clientSecret)}`;
  }

  private nextAction(intent: PaymentIntent, attempt: PaymentAttempt | null): NextAction | null {
    if (intent.status !== 'REQUIRES_CUSTOMER_ACTION' || attempt?.status !== 'AUTHENTICATION_REDIRECTED') return null;
    return { redirect_to_url: { url: this.threeDsUrl(intent), return_url: intent.returnUrl } };
  }
}

export function customerSnapshot(customer: Customer): CustomerSnapshot {
  return {
    external_customer_id: customer.externalCustomerId ?? '',
    first_name: customer.firstName ?? '',
    last_name: customer.lastName ?? '',
    email: customer.email ?? '',
    phone_number: customer.phoneNumber ?? '',
    address: customer.address,
    metadata: customer.metadata,
    create_time: iso(customer.createdAt),
    update_time: iso(customer.updatedAt),
  };
}
