import { PaymentIntentView } from '@paygrid/contracts';
import { SANDBOX } from '../support/api-client';
import { ACQUIRING_E2E_ENV, CARDS, cardMethod, Merchant, useAcquiringE2eSettings } from './support/acquiring-e2e';

/**
 * Manual capture and cancel (decisions §7): auto_capture false authorises only; the merchant captures
 * all or part once, or cancels inside the window; the window closing captures automatically (the e2e
 * acquiring runs with CAPTURE_WINDOW_OVERRIDE_MS); capture and cancel racing: exactly one wins.
 */
describe('manual capture and cancel', () => {
  let merchant: Merchant;

  beforeAll(async () => {
    await useAcquiringE2eSettings();
    merchant = await Merchant.of(SANDBOX.master);
  }, 120_000);

  const authorise = (amount = '40.00') =>
    merchant.createIntent({ amount, payment_method: cardMethod(CARDS.visa, { auto_capture: false }) });

  it('authorises only when auto_capture is false', async () => {
    const intent = await authorise();
    expect(intent.intent_status).toBe('REQUIRES_CAPTURE');
    expect(intent.captured_amount).toBe('0.00');
    expect(intent.latest_payment_attempt).toMatchObject({ attempt_status: 'AUTHORIZED', captured_amount: '0.00' });
    expect(intent.latest_payment_attempt?.payment_method.card.auto_capture).toBe(false);
  });

  it('captures the full amount, once', async () => {
    const intent = await authorise();
    const captured = await merchant.post<PaymentIntentView>(`/v2/payment_intents/${intent.payment_intent_id}/capture`, {});
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ intent_status: 'SUCCEEDED', captured_amount: '40.00' });
    expect(captured.body.latest_payment_attempt).toMatchObject({ attempt_status: 'CAPTURE_REQUESTED', captured_amount: '40.00' });
    const again = await merchant.post(`/v2/payment_intents/${intent.payment_intent_id}/capture`, {});
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ message: 'cannot capture PaymentIntent: status is SUCCEEDED' });
  });

  it('captures part of the amount with amount_to_capture', async () => {
    const intent = await authorise('40.00');
    const captured = await merchant.post<PaymentIntentView>(`/v2/payment_intents/${intent.payment_intent_id}/capture`, {
      amount_to_capture: '15.50',
    });
    expect(captured.body).toMatchObject({ intent_status: 'SUCCEEDED', amount: '40.00', captured_amount: '15.50' });
  });

  it('refuses to capture more than was authorised, or an amount with too many decimals', async () => {
    const intent = await authorise('40.00');
    const tooMuch = await merchant.post(`/v2/payment_intents/${intent.payment_intent_id}/capture`, { amount_to_capture: '40.01' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toMatchObject({ message: 'amount_to_capture: must not exceed the authorised 40.00 USD' });
    const decimals = await merchant.post(`/v2/payment_intents/${intent.payment_intent_id}/capture`, { amount_to_capture: '1.001' });
    expect(decimals.body).toMatchObject({ message: 'amount_to_capture: at most 2 decimal places for USD' });
    expect((await merchant.intent(intent.payment_intent_id)).intent_status).toBe('REQUIRES_CAPTURE');
  });

  it('captures automatically when the capture window closes', async () => {
    const intent = await authorise();
    const captured = await merchant.waitForIntent(
      intent.payment_intent_id,
      (current) => current.intent_status === 'SUCCEEDED',
      'the window-close capture',
      Number(ACQUIRING_E2E_ENV.CAPTURE_WINDOW_OVERRIDE_MS) + 20_000,
    );
    expect(captured.captured_amount).toBe('40.00');
  });

  describe('cancel', () => {
    it('cancels an intent that requires a payment method', async () => {
      const intent = await merchant.createIntent();
      const cancelled = await merchant.post<PaymentIntentView>(`/v2/payment_intents/${intent.payment_intent_id}/cancel`, {
        cancellation_reason: 'requested_by_customer',
      });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({ intent_status: 'CANCELLED', cancellation_reason: 'requested_by_customer' });
      expect(cancelled.body.cancel_time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    });

    it('cancels an intent after a decline', async () => {
      const intent = await merchant.createIntent({ payment_method: cardMethod(CARDS.declined) });
      const cancelled = await merchant.post<PaymentIntentView>(`/v2/payment_intents/${intent.payment_intent_id}/cancel`, {});
      expect(cancelled.body.intent_status).toBe('CANCELLED');
      expect(cancelled.body.latest_payment_attempt?.attempt_status).toBe('FAILED');
    });

    it('cancels an intent waiting for 3-D Secure and cancels its attempt', async () => {
      const intent = await merchant.createIntent({ payment_method: cardMethod(CARDS.threeDs) });
      const cancelled = await merchant.post<PaymentIntentView>(`/v2/payment_intents/${intent.payment_intent_id}/cancel`, {
        cancellation_reason: 'abandoned',
      });
      expect(cancelled.body).toMatchObject({ intent_status: 'CANCELLED', next_action: null });
      expect(cancelled.body.latest_payment_attempt).toMatchObject({ attempt_status: 'CANCELLED', cancellation_reason: 'abandoned' });
    });

    it('voids an authorisation inside the capture window', async () => {
      const intent = await authorise();
      const cancelled = await merchant.post<PaymentIntentView>(`/v2/payment_intents/${intent.payment_intent_id}/cancel`, {
        cancellation_reason: 'duplicate',
      });
      expect(cancelled.body).toMatchObject({ intent_status: 'CANCELLED', captured_amount: '0.00' });
      expect(cancelled.body.latest_payment_attempt?.attempt_status).toBe('CANCELLED');
      const capture = await merchant.post(`/v2/payment_intents/${intent.payment_intent_id}/capture`, {});
      expect(capture.body).toMatchObject({ message: 'cannot capture PaymentIntent: status is CANCELLED' });
    });

    it.each([
      ['SUCCEEDED', () => merchant.createIntent({ payment_method: cardMethod(CARDS.visa) })],
      ['FAILED', () => merchant.createIntent({ payment_method: cardMethod(CARDS.fraud) })],
      ['PENDING', () => merchant.createIntent({ payment_method: cardMethod(CARDS.async) })],
      [
        'CANCELLED',
        async () => {
          const intent = await merchant.createIntent();
          await merchant.post(`/v2/payment_intents/${intent.payment_intent_id}/cancel`, {});
          return intent;
        },
      ],
    ])('refuses to cancel an intent in %s, naming the status', async (status, make) => {
      const intent = await make();
      const refused = await merchant.post(`/v2/payment_intents/${intent.payment_intent_id}/cancel`, {});
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: `cannot cancel PaymentIntent: status is ${status}`,
      });
    });

    it('refuses an unknown cancellation_reason', async () => {
      const intent = await merchant.createIntent();
      const refused = await merchant.post(`/v2/payment_intents/${intent.payment_intent_id}/cancel`, { cancellation_reason: 'bored' });
      expect(refused.body).toMatchObject({ message: 'cancellation_reason: must be one of duplicate, fraudulent, requested_by_customer, abandoned' });
    });
  });

  it('lets exactly one of a racing capture and cancel win', async () => {
    for (let round = 0; round < 5; round += 1) {
      const intent = await authorise();
      const [capture, cancel] = await Promise.all([
        merchant.post<PaymentIntentView>(`/v2/payment_intents/${intent.payment_intent_id}/capture`, {}),
        merchant.post<PaymentIntentView>(`/v2/payment_intents/${intent.payment_intent_id}/cancel`, {}),
      ]);
      expect([capture.status, cancel.status].sort()).toEqual([200, 400]);
      const final = await merchant.intent(intent.payment_intent_id);
      expect(final.intent_status).toBe(capture.status === 200 ? 'SUCCEEDED' : 'CANCELLED');
    }
  });
});
