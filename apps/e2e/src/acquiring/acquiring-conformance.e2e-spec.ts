import { Page, PaymentAttemptView, PaymentIntentView } from '@paygrid/contracts';
import { SANDBOX } from '../support/api-client';
import { queryE2eDatabase } from '../support/databases';
import { CARDS, cardMethod, intentBody, Merchant, useAcquiringE2eSettings } from './support/acquiring-e2e';

/**
 * Issue 13 (items 2, 3, 4): what the official SDK sends must work unchanged. A confirm without
 * payment_method (`{}`, wire-compat §9.1, §9.4) uses the intent's card on file; acquiring and payouts take
 * three-letter ISO 4217 currencies only (spec 2.1; XUSD is an issuing card currency); the attempts list
 * accepts every attempt_status of wire-compat §9.7.
 */
describe('acquiring conformance with the official SDK', () => {
  let merchant: Merchant;

  beforeAll(async () => {
    await useAcquiringE2eSettings();
    merchant = await Merchant.of(SANDBOX.master);
  }, 120_000);

  describe('confirm with {}', () => {
    const confirmEmpty = (intent: PaymentIntentView) =>
      merchant.post<PaymentIntentView>(`/v2/payment_intents/${intent.payment_intent_id}/confirm`, {});

    it("charges the customer's saved card when the intent has no card of its own", async () => {
      const customer = { email: `shopper-${Date.now()}@example.com`, first_name: 'Ada' };
      const first = await merchant.createIntent({ customer, payment_method: cardMethod(CARDS.mastercard) });
      expect(first.intent_status).toBe('SUCCEEDED');
      const later = await merchant.createIntent({ amount: '12.00', customer_id: first.customer_id });
      expect(later.intent_status).toBe('REQUIRES_PAYMENT_METHOD');

      const confirmed = await confirmEmpty(later);
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toMatchObject({ intent_status: 'SUCCEEDED', captured_amount: '12.00' });
      expect(confirmed.body.latest_payment_attempt).toMatchObject({
        attempt_status: 'CAPTURE_REQUESTED',
        authentication_data: { cvv_result: 'P' },
        payment_method: { card: { card_number: '555555******4444', last4: '4444' } },
      });
    });

    it('answers a 400 naming payment_method when there is nothing to confirm with, and records nothing', async () => {
      const intent = await merchant.createIntent();
      const refused = await confirmEmpty(intent);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        type: 'invalid_request_error',
        code: 'invalid_request_error',
        message: expect.stringMatching(/^payment_method: is required/),
      });
      const current = await merchant.intent(intent.payment_intent_id);
      expect(current).toMatchObject({ intent_status: 'REQUIRES_PAYMENT_METHOD', latest_payment_attempt: null });
    });

    it('refuses an intent that cannot be confirmed for its status, not for the missing card', async () => {
      const paid = await merchant.createIntent({ payment_method: cardMethod(CARDS.visa) });
      const refused = await confirmEmpty(paid);
      expect(refused.body).toMatchObject({ code: 'payment_intent_unexpected_state', message: 'cannot confirm PaymentIntent: status is SUCCEEDED' });
    });
  });

  describe('ISO 4217 currencies only', () => {
    it('refuses XUSD on a new intent, naming the field, and stores nothing', async () => {
      const body = intentBody({ currency: 'XUSD', payment_method: cardMethod(CARDS.visa) });
      const refused = await merchant.post('/v2/payment_intents/create', body);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        type: 'invalid_request_error',
        code: 'invalid_request_error',
        message: 'currency: must be a three-letter currency code',
      });
      const stored = await queryE2eDatabase('paygrid_acquiring', 'SELECT 1 FROM payment_intents WHERE merchant_order_id = $1', [body.merchant_order_id]);
      expect(stored).toEqual([]);
    });

    it('refuses XUSD on an update, a payout and a balance', async () => {
      const intent = await merchant.createIntent();
      const update = await merchant.post(`/v2/payment_intents/${intent.payment_intent_id}`, { currency: 'XUSD', amount: '5.00' });
      expect(update.body).toMatchObject({ type: 'invalid_request_error', message: 'currency: must be a three-letter currency code' });
      expect((await merchant.intent(intent.payment_intent_id)).currency).toBe('USD');
      const payout = await merchant.post('/v2/payment/payout/create', {
        payout_currency: 'XUSD',
        payout_amount: '1.00',
        statement_descriptor: 'E2E XUSD',
      });
      expect(payout.status).toBe(400);
      expect(payout.body).toMatchObject({ type: 'invalid_request_error', message: 'payout_currency: must be a three-letter currency code' });
      const balance = await merchant.get('/v2/payment/balances/XUSD');
      expect(balance.status).toBe(400);
      expect(balance.body).toMatchObject({ message: 'currency: must be a three-letter currency code' });
    });
  });

  describe('attempt_status filter (wire-compat §9.7)', () => {
    const SDK_ATTEMPT_STATUSES = [
      'INITIATED',
      'AUTHENTICATION_REDIRECTED',
      'PENDING_AUTHORIZATION',
      'AUTHORIZED',
      'CAPTURE_REQUESTED',
      'SETTLED',
      'SUCCEEDED',
      'CANCELLED',
      'EXPIRED',
      'FAILED',
    ];
    const listed = (status: string) => merchant.get<Page<PaymentAttemptView>>(`/v2/payment/payment_attempts?attempt_status=${status}&page_size=100`);

    it.each(SDK_ATTEMPT_STATUSES)('accepts attempt_status=%s', async (status) => {
      const page = await listed(status);
      expect(page.status).toBe(200);
      expect(Array.isArray(page.body.data)).toBe(true);
      if (status !== 'SUCCEEDED') expect(page.body.data.every((attempt) => attempt.attempt_status === status)).toBe(true);
    });

    it('lists the attempts that made their intent SUCCEEDED under SUCCEEDED', async () => {
      const paid = await merchant.createIntent({ payment_method: cardMethod(CARDS.visa) });
      const declined = await merchant.createIntent({ payment_method: cardMethod(CARDS.declined) });
      const page = await listed('SUCCEEDED');
      const ids = page.body.data.map((attempt) => attempt.attempt_id);
      expect(ids).toContain(paid.latest_payment_attempt?.attempt_id);
      expect(ids).not.toContain(declined.latest_payment_attempt?.attempt_id);
      expect(page.body.data.every((attempt) => ['CAPTURE_REQUESTED', 'SETTLED'].includes(attempt.attempt_status))).toBe(true);
    });

    it('still refuses a value outside the list, naming the field', async () => {
      const page = await listed('DONE');
      expect(page.status).toBe(400);
      expect(page.body).toMatchObject({ message: expect.stringMatching(/^attempt_status: must be one of INITIATED/) });
    });
  });
});
