import { PaymentPresenter } from './payment.presenter';
import { EMPTY_AUTHENTICATION, PaymentAttempt, PaymentIntent } from './payment.types';

const at = new Date('2026-03-01T10:00:00.000Z');

function anIntent(overrides: Partial<PaymentIntent> = {}): PaymentIntent {
  return {
    id: 'pi_01J00000000000000000000000',
    accountId: 'acc',
    masterAccountId: 'acc',
    amountMinor: 1234n,
    currency: 'KWD',
    status: 'REQUIRES_PAYMENT_METHOD',
    description: 'Order',
    merchantOrderId: 'o-1',
    returnUrl: 'https://shop.example/back',
    metadata: {},
    paymentOrders: null,
    customerId: null,
    clientSecret: 'pi_01J00000000000000000000000_secret_abc',
    clientSecretExpiresAt: at,
    capturedAmountMinor: 0n,
    cancellationReason: null,
    cancelledAt: null,
    completedAt: null,
    latestAttemptId: null,
    ipAddress: null,
    browserInfo: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

function anAttempt(overrides: Partial<PaymentAttempt> = {}): PaymentAttempt {
  return {
    id: 'att_01J00000000000000000000000',
    intentId: 'pi_01J00000000000000000000000',
    accountId: 'acc',
    commandId: null,
    status: 'AUTHENTICATION_REDIRECTED',
    amountMinor: 1234n,
    currency: 'KWD',
    capturedAmountMinor: 0n,
    refundedAmountMinor: 0n,
    autoCapture: true,
    card: {
      card_name: 'A',
      card_number: '400000******3220',
      brand: 'VISA',
      bin: '400000',
      last4: '3220',
      expiry_month: '12',
      expiry_year: '2030',
      billing: {},
    },
    savedCardId: null,
    threeDsAction: null,
    processor: 'sandbox',
    processorReference: 'sbx_1',
    authCode: '',
    arn: '',
    rrn: '',
    adviceCode: '',
    authenticationData: EMPTY_AUTHENTICATION,
    failureCode: '',
    failureMessage: '',
    cancellationReason: '',
    authorizedAt: null,
    completedAt: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

describe('the payment presenter', () => {
  const presenter = new PaymentPresenter({ GATEWAY_PUBLIC_URL: 'https://pay.example/' });

  it('writes amounts in the currency exponent, times in ISO 8601 and empty strings where nothing happened', () => {
    const view = presenter.intent(anIntent(), null, null);
    expect(view).toMatchObject({
      amount: '1.234',
      captured_amount: '0.000',
      customer_id: '',
      cancellation_reason: '',
      create_time: '2026-03-01T10:00:00.000Z',
      complete_time: '',
      next_action: null,
      latest_payment_attempt: null,
    });
    expect(view).not.toHaveProperty('cancel_time');
    expect(view).not.toHaveProperty('customer');
  });

  it('points next_action at the hosted 3-D Secure page while the shopper must authenticate', () => {
    const view = presenter.intent(anIntent({ status: 'REQUIRES_CUSTOMER_ACTION' }), anAttempt(), null);
    expect(view.next_action).toEqual({
      redirect_to_url: {
        url: 'https://pay.example/api/hosted/three_ds?client_secret=pi_01J00000000000000000000000_secret_abc',
        return_url: 'https://shop.example/back',
      },
    });
    expect(view.latest_payment_attempt?.payment_method.card).toMatchObject({ card_number: '400000******3220', auto_capture: true });
  });

  it('leaves the client_secret out of what events carry', () => {
    expect(presenter.intentForEvent(anIntent(), null, null)).not.toHaveProperty('client_secret');
    expect(presenter.intent(anIntent(), null, null).client_secret).toBe('pi_01J00000000000000000000000_secret_abc');
  });

  it('shows cancel_time only for a cancelled intent', () => {
    const view = presenter.intent(anIntent({ status: 'CANCELLED', cancelledAt: at, cancellationReason: 'duplicate' }), null, null);
    expect(view).toMatchObject({ cancel_time: '2026-03-01T10:00:00.000Z', cancellation_reason: 'duplicate' });
  });
});
