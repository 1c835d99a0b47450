import { randomUUID } from 'node:crypto';
import { Page, PaymentAttemptView, PaymentIntentView } from '@paygrid/contracts';
import { SANDBOX } from '../support/api-client';
import { CARDS, cardMethod, intentBody, Merchant, useAcquiringE2eSettings } from './support/acquiring-e2e';

/**
 * PaymentIntents through the gateway's HTTP API as the official SDKs call it: creation with every
 * rule of spec 4.1, the sandbox outcomes of decisions §6, update then confirm, lists and attempts.
 */
describe('payment intents', () => {
  let merchant: Merchant;

  beforeAll(async () => {
    await useAcquiringE2eSettings();
    merchant = await Merchant.of(SANDBOX.master);
  }, 120_000);

  describe('with an approved card and auto-capture', () => {
    it('succeeds at once and carries every field of spec 2.1 and 2.4', async () => {
      const intent = await merchant.createIntent({ payment_method: cardMethod(CARDS.visa), metadata: { order: '42' } });
      expect(intent).toMatchObject({
        amount: '25.00',
        currency: 'USD',
        intent_status: 'SUCCEEDED',
        captured_amount: '25.00',
        description: 'E2E order',
        customer_id: '',
        cancellation_reason: '',
        metadata: { order: '42' },
        next_action: null,
        return_url: 'https://shop.example/return',
        available_payment_method_types: ['card'],
      });
      expect(intent.payment_intent_id).toMatch(/^pi_[0-9A-Z]{26}$/);
      expect(intent.client_secret).toMatch(new RegExp(`^${intent.payment_intent_id}_secret_`));
      expect(intent.create_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
      expect(intent.complete_time).not.toBe('');
      expect(intent.cancel_time).toBeUndefined();
      const attempt = intent.latest_payment_attempt as PaymentAttemptView;
      expect(attempt).toMatchObject({
        amount: '25.00',
        captured_amount: '25.00',
        refunded_amount: '0.00',
        attempt_status: 'CAPTURE_REQUESTED',
        failure_code: '',
        authentication_data: { avs_result: 'Y', cvv_result: 'M', three_ds: null },
        payment_method: {
          card: {
            card_number: '424242******4242',
            brand: 'VISA',
            bin: '424242',
            last4: '4242',
            expiry_month: '12',
            auto_capture: true,
          },
        },
      });
      expect(attempt.attempt_id).toMatch(/^att_[0-9A-Z]{26}$/);
      expect(attempt.auth_code).toMatch(/^[0-9A-F]{6}$/);
      expect(attempt.rrn).toMatch(/^\d{12}$/);
    });

    it('answers a repeated idempotency key with the stored intent instead of charging twice', async () => {
      const key = randomUUID();
      const body = intentBody({ payment_method: cardMethod(CARDS.mastercard) });
      const first = await merchant.post<PaymentIntentView>('/v2/payment_intents/create', body, { idempotencyKey: key });
      const second = await merchant.post<PaymentIntentView>('/v2/payment_intents/create', body, { idempotencyKey: key });
      expect(second.status).toBe(200);
      expect(second.headers.get('x-idempotent-replayed')).toBe('true');
      expect(second.body.payment_intent_id).toBe(first.body.payment_intent_id);
    });
  });

  describe('declines', () => {
    it.each([
      [CARDS.declined, 'card_declined', '03'],
      [CARDS.insufficientFunds, 'insufficient_funds', '02'],
      [CARDS.expiredCard, 'expired_card', '01'],
      [CARDS.incorrectCvc, 'incorrect_cvc', '01'],
    ])('declines card %s with failure_code %s and lets the shopper try again', async (card, failureCode, adviceCode) => {
      const intent = await merchant.createIntent({ payment_method: cardMethod(card) });
      expect(intent.intent_status).toBe('REQUIRES_PAYMENT_METHOD');
      expect(intent.latest_payment_attempt).toMatchObject({ attempt_status: 'FAILED', failure_code: failureCode, advice_code: adviceCode });
    });

    it('blocks the fraud card for good: attempt and intent FAILED', async () => {
      const intent = await merchant.createIntent({ payment_method: cardMethod(CARDS.fraud) });
      expect(intent.intent_status).toBe('FAILED');
      expect(intent.latest_payment_attempt).toMatchObject({ attempt_status: 'FAILED', failure_code: 'fraudulent' });
      const retry = await merchant.post(`/v2/payment_intents/${intent.payment_intent_id}/confirm`, { payment_method: cardMethod(CARDS.visa) });
      expect(retry.status).toBe(400);
      expect(retry.body).toMatchObject({ code: 'payment_intent_unexpected_state', message: 'cannot confirm PaymentIntent: status is FAILED' });
    });
  });

  it('keeps the asynchronous card PENDING, then succeeds a few seconds later', async () => {
    const intent = await merchant.createIntent({ payment_method: cardMethod(CARDS.async) });
    expect(intent.intent_status).toBe('PENDING');
    expect(intent.latest_payment_attempt?.attempt_status).toBe('PENDING_AUTHORIZATION');
    const done = await merchant.waitForIntent(intent.payment_intent_id, (current) => current.intent_status === 'SUCCEEDED', 'the async card to succeed');
    expect(done.latest_payment_attempt?.attempt_status).toMatch(/CAPTURE_REQUESTED|SETTLED/);
  });

  it('sends the 3-D Secure card to the hosted challenge page', async () => {
    const intent = await merchant.createIntent({ payment_method: cardMethod(CARDS.threeDs) });
    expect(intent.intent_status).toBe('REQUIRES_CUSTOMER_ACTION');
    expect(intent.latest_payment_attempt?.attempt_status).toBe('AUTHENTICATION_REDIRECTED');
    expect(intent.next_action?.redirect_to_url?.return_url).toBe('https://shop.example/return');
    expect(intent.next_action?.redirect_to_url?.url).toMatch(/\/api\/hosted\/three_ds\?client_secret=pi_/);
    expect(intent.latest_payment_attempt?.authentication_data.three_ds).toMatchObject({ three_ds_authentication_status: 'C' });
  });

  it('updates an intent waiting for a payment method, then confirms it with a card', async () => {
    const intent = await merchant.createIntent();
    expect(intent.intent_status).toBe('REQUIRES_PAYMENT_METHOD');
    expect(intent.latest_payment_attempt).toBeNull();
    const updated = await merchant.post<PaymentIntentView>(`/v2/payment_intents/${intent.payment_intent_id}`, {
      amount: '30.25',
      description: 'Updated order',
      metadata: { step: 'updated' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ amount: '30.25', description: 'Updated order', metadata: { step: 'updated' } });
    const confirmed = await merchant.post<PaymentIntentView>(`/v2/payment_intents/${intent.payment_intent_id}/confirm`, {
      payment_method: cardMethod(CARDS.visa),
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ intent_status: 'SUCCEEDED', captured_amount: '30.25' });
    const again = await merchant.post(`/v2/payment_intents/${intent.payment_intent_id}`, { description: 'Too late' });
    expect(again.body).toMatchObject({ message: 'cannot update PaymentIntent: status is SUCCEEDED' });
  });

  describe('validation (spec 4.1)', () => {
    it.each([
      ['an amount with too many decimals', { amount: '10.001' }, 'amount: at most 2 decimal places for USD'],
      ['a zero amount', { amount: '0' }, 'amount: must be greater than 0'],
      ['JPY with decimals', { amount: '10.5', currency: 'JPY' }, 'amount: no decimal places allowed for JPY'],
      ['an unknown currency', { currency: 'ABC' }, 'currency: is not a supported currency'],
      ['a description over 32 characters', { description: 'x'.repeat(33) }, 'description: must be shorter than or equal to 32 characters'],
      ['a merchant_order_id over 36 characters', { merchant_order_id: 'o'.repeat(37) }, 'merchant_order_id: must be shorter than or equal to 36 characters'],
      ['a return_url over 1024 characters', { return_url: `https://x.example/${'a'.repeat(1020)}` }, 'return_url: must be shorter than or equal to 1024 characters'],
      ['metadata over 512 bytes', { metadata: { note: 'é'.repeat(300) } }, 'metadata: must be at most 512 bytes as JSON'],
      ['an unknown field', { colour: 'blue' }, expect.stringMatching(/^colour: /)],
      [
        'a US billing address without state',
        { payment_method: cardMethod(CARDS.visa, { billing: { address: { country_code: 'US', city: 'Austin' } } }) },
        'payment_method.card.billing.address.state: is required when country_code is US',
      ],
      [
        'enforce_3ds without ip_address',
        { payment_method: cardMethod(CARDS.visa, { three_ds_action: 'enforce_3ds' }), browser_info: { user_agent: 'x' } },
        'ip_address: is required when payment_method.card.three_ds_action is enforce_3ds',
      ],
      [
        'enforce_3ds without browser_info',
        { payment_method: cardMethod(CARDS.visa, { three_ds_action: 'enforce_3ds' }), ip_address: '203.0.113.9' },
        'browser_info: is required when payment_method.card.three_ds_action is enforce_3ds',
      ],
    ])('refuses %s with a message naming the field', async (_case, overrides, message) => {
      const response = await merchant.post('/v2/payment_intents/create', intentBody(overrides));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ type: 'invalid_request_error', code: 'invalid_request_error', message });
    });

    it('refuses a card number failing Luhn or of the wrong length as a card_error before processing', async () => {
      for (const number of ['4242424242424241', '42424242424242']) {
        const response = await merchant.post('/v2/payment_intents/create', intentBody({ payment_method: cardMethod(number) }));
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ type: 'card_error', code: 'invalid_number' });
      }
    });

    it('accepts enforce_3ds with ip_address and browser_info and records the frictionless 3-D Secure result', async () => {
      const intent = await merchant.createIntent({
        payment_method: cardMethod(CARDS.visa, { three_ds_action: 'enforce_3ds', billing: { address: { country_code: 'CA', state: 'ON' } } }),
        ip_address: '2001:db8::1',
        browser_info: { user_agent: 'Mozilla/5.0', language: 'en-CA', javascript_enabled: true },
      });
      expect(intent.intent_status).toBe('SUCCEEDED');
      expect(intent.latest_payment_attempt?.authentication_data.three_ds).toMatchObject({ three_ds_authentication_status: 'Y', eci: '05' });
    });
  });

  describe('authentication and visibility', () => {
    it('requires x-client-id matching the token on payment-intent operations', async () => {
      const missing = await merchant.get('/v2/payment_intents', { 'x-client-id': '' });
      expect(missing.status).toBe(401);
      const wrong = await merchant.get('/v2/payment_intents', { 'x-client-id': SANDBOX.sub1.clientId });
      expect(wrong.status).toBe(401);
    });

    it("reports another account's intent exactly like a missing one", async () => {
      const intent = await merchant.createIntent();
      const other = await Merchant.of(SANDBOX.sub1);
      const foreign = await other.get(`/v2/payment_intents/${intent.payment_intent_id}`);
      const missing = await other.get('/v2/payment_intents/pi_01JAAAAAAAAAAAAAAAAAAAAAAA');
      expect(foreign.status).toBe(400);
      expect(foreign.body).toEqual(missing.body);
      expect(foreign.body).toMatchObject({ type: 'invalid_request_error', code: 'resource_not_found' });
      const cancel = await other.post(`/v2/payment_intents/${intent.payment_intent_id}/cancel`, {});
      expect(cancel.body).toEqual(missing.body);
    });
  });

  describe('customers', () => {
    it('creates an inline customer and returns its id and snapshot', async () => {
      const intent = await merchant.createIntent({
        customer: { external_customer_id: 'shopper-1', first_name: 'Ada', email: 'ada@example.com', address: { country_code: 'GB' } },
      });
      expect(intent.customer_id).toMatch(/^cus_[0-9A-Z]{26}$/);
      expect(intent.customer).toMatchObject({ external_customer_id: 'shopper-1', first_name: 'Ada', email: 'ada@example.com' });
      expect(intent.customer).not.toHaveProperty('customer_id');
      expect(intent.customer).not.toHaveProperty('id');
    });

    it('lets customer_id take precedence over an inline customer', async () => {
      const first = await merchant.createIntent({ customer: { first_name: 'Returning' } });
      const second = await merchant.createIntent({ customer_id: first.customer_id, customer: { first_name: 'Ignored' } });
      expect(second.customer_id).toBe(first.customer_id);
      expect(second.customer?.first_name).toBe('Returning');
    });

    it('refuses an unknown customer_id', async () => {
      const response = await merchant.post('/v2/payment_intents/create', intentBody({ customer_id: 'cus_01JAAAAAAAAAAAAAAAAAAAAAAA' }));
      expect(response.body).toMatchObject({ code: 'resource_not_found', message: 'customer not found' });
    });
  });

  describe('lists', () => {
    it('applies the defaults when called with no query at all, and refuses a page size out of range', async () => {
      const page = await merchant.get<Page<PaymentIntentView>>('/v2/payment_intents');
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(10);
      expect(page.body.total_items).toBeGreaterThan(0);
      expect(page.body.total_pages).toBe(Math.ceil(page.body.total_items / 10));
      expect((await merchant.get('/v2/payment_intents?page_size=5')).status).toBe(400);
      expect((await merchant.get('/v2/payment_intents?page_number=0')).status).toBe(400);
    });

    it('filters intents by status and creation time', async () => {
      const since = new Date(Date.now() - 1000).toISOString();
      const intent = await merchant.createIntent({ payment_method: cardMethod(CARDS.fraud) });
      const page = await merchant.get<Page<PaymentIntentView>>(
        `/v2/payment_intents?intent_status=FAILED&create_start_time=${encodeURIComponent(since)}&page_size=100`,
      );
      expect(page.body.data.map((item) => item.payment_intent_id)).toContain(intent.payment_intent_id);
      expect(page.body.data.every((item) => item.intent_status === 'FAILED')).toBe(true);
      const before = await merchant.get<Page<PaymentIntentView>>(`/v2/payment_intents?create_end_time=${encodeURIComponent(since)}&page_size=100`);
      expect(before.body.data.map((item) => item.payment_intent_id)).not.toContain(intent.payment_intent_id);
    });

    it('lists and retrieves the attempts of an intent', async () => {
      const intent = await merchant.createIntent({ payment_method: cardMethod(CARDS.declined) });
      await merchant.post(`/v2/payment_intents/${intent.payment_intent_id}/confirm`, { payment_method: cardMethod(CARDS.visa) });
      const attempts = await merchant.get<Page<PaymentAttemptView>>(`/v2/payment/payment_attempts?payment_intent_id=${intent.payment_intent_id}`);
      expect(attempts.body.total_items).toBe(2);
      expect(attempts.body.data.map((attempt) => attempt.attempt_status).sort()).toEqual(['CAPTURE_REQUESTED', 'FAILED'].sort());
      const failed = attempts.body.data.find((attempt) => attempt.attempt_status === 'FAILED') as PaymentAttemptView;
      const one = await merchant.get<PaymentAttemptView>(`/v2/payment/payment_attempts/${failed.attempt_id}`);
      expect(one.body).toEqual(failed);
      const filtered = await merchant.get<Page<PaymentAttemptView>>(
        `/v2/payment/payment_attempts?payment_intent_id=${intent.payment_intent_id}&attempt_status=FAILED`,
      );
      expect(filtered.body.data).toHaveLength(1);
    });
  });
});
