import { HostedSessionView, PaymentIntentView } from '@paygrid/contracts';
import { SANDBOX } from '../support/api-client';
import { E2E_GATEWAY } from '../support/stack-settings';
import { CARDS, cardMethod, Merchant, useAcquiringE2eSettings } from './support/acquiring-e2e';

/**
 * The hosted pages over plain HTTP: the checkout page of an intent created without a payment method
 * (opened with its client_secret, listing the customer's saved cards) and the 3-D Secure challenge
 * page, with the JSON routes their script posts to. The browser suite drives the same pages in Chromium.
 */
async function page(path: string): Promise<{ status: number; html: string; headers: Headers }> {
  const response = await fetch(`${E2E_GATEWAY}${path}`);
  return { status: response.status, html: await response.text(), headers: response.headers };
}

async function postJson<T>(path: string, body: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${E2E_GATEWAY}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

const card = (number: string) => ({
  card_number: number,
  expiry_month: '11',
  expiry_year: String(new Date().getUTCFullYear() + 1),
  cvc: '321',
});

describe('hosted pages', () => {
  let merchant: Merchant;

  beforeAll(async () => {
    await useAcquiringE2eSettings();
    merchant = await Merchant.of(SANDBOX.master);
  }, 120_000);

  it('serves the checkout page as plain HTML with a strict content security policy', async () => {
    const intent = await merchant.createIntent({ description: 'Blue <teapot>' });
    const checkout = await page(`/api/hosted/checkout?client_secret=${intent.client_secret}`);
    expect(checkout.status).toBe(200);
    expect(checkout.headers.get('content-type')).toMatch(/^text\/html/);
    expect(checkout.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(checkout.html).toContain('<html lang="en">');
    expect(checkout.html).toContain('Blue &#60;teapot&#62;');
    expect(checkout.html).toContain('<label for="card_number">Card number</label>');
    expect(checkout.html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
  });

  it('refuses an unknown client_secret with an HTML error page', async () => {
    const missing = await page('/api/hosted/checkout?client_secret=pi_01JAAAAAAAAAAAAAAAAAAAAAAA_secret_nope');
    expect(missing.status).toBe(400);
    expect(missing.html).toContain('client_secret is unknown or has expired');
    expect((await page('/api/hosted/checkout')).status).toBe(400);
  });

  it('pays with a new card, saves it for the customer, and offers it on the next checkout', async () => {
    const first = await merchant.createIntent({ customer: { first_name: 'Card', last_name: 'Holder' } });
    const paid = await postJson<HostedSessionView>('/api/hosted/checkout/pay', {
      client_secret: first.client_secret,
      card: card(CARDS.mastercard),
    });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ intent_status: 'SUCCEEDED', saved_cards: [{ card_number: '555555******4444', brand: 'MASTERCARD' }] });

    const second = await merchant.createIntent({ customer_id: first.customer_id, amount: '9.99' });
    const checkout = await page(`/api/hosted/checkout?client_secret=${second.client_secret}`);
    expect(checkout.html).toContain('555555******4444');
    const savedCardId = /value="(card_[0-9A-Z]+)"/.exec(checkout.html)?.[1];
    expect(savedCardId).toBeDefined();
    const reused = await postJson<HostedSessionView>('/api/hosted/checkout/pay', {
      client_secret: second.client_secret,
      saved_card_id: savedCardId,
    });
    expect(reused.body.intent_status).toBe('SUCCEEDED');
    const intent = await merchant.intent(second.payment_intent_id);
    expect(intent.latest_payment_attempt).toMatchObject({
      attempt_status: 'CAPTURE_REQUESTED',
      authentication_data: { cvv_result: 'P' },
      payment_method: { card: { card_number: '555555******4444' } },
    });
  });

  it("does not let one customer's intent use another customer's saved card", async () => {
    const owner = await merchant.createIntent({ customer: { first_name: 'Owner' } });
    await postJson('/api/hosted/checkout/pay', { client_secret: owner.client_secret, card: card(CARDS.visa) });
    const ownerPage = await page(`/api/hosted/checkout?client_secret=${(await merchant.createIntent({ customer_id: owner.customer_id })).client_secret}`);
    const savedCardId = /value="(card_[0-9A-Z]+)"/.exec(ownerPage.html)?.[1];
    const stranger = await merchant.createIntent({ customer: { first_name: 'Stranger' } });
    const refused = await postJson<{ code: string }>('/api/hosted/checkout/pay', { client_secret: stranger.client_secret, saved_card_id: savedCardId });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('resource_not_found');
  });

  it('refuses an invalid card typed on the checkout page before processing', async () => {
    const intent = await merchant.createIntent();
    const refused = await postJson<{ type: string; code: string }>('/api/hosted/checkout/pay', {
      client_secret: intent.client_secret,
      card: card('4242424242424241'),
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ type: 'card_error', code: 'invalid_number' });
  });

  describe('3-D Secure challenge', () => {
    async function challenged(): Promise<PaymentIntentView> {
      const intent = await merchant.createIntent({ payment_method: cardMethod(CARDS.threeDs) });
      expect(intent.intent_status).toBe('REQUIRES_CUSTOMER_ACTION');
      return intent;
    }

    it('serves the page next_action points to, and approving it completes the payment', async () => {
      const intent = await challenged();
      const url = new URL(intent.next_action?.redirect_to_url?.url ?? '');
      const challenge = await page(`${url.pathname}${url.search}`);
      expect(challenge.status).toBe(200);
      expect(challenge.html).toContain('Approve payment');
      expect(challenge.html).toContain('Fail authentication');
      const approved = await postJson<HostedSessionView>('/api/hosted/three_ds', { client_secret: intent.client_secret, outcome: 'approve' });
      expect(approved.body.intent_status).toBe('SUCCEEDED');
      const final = await merchant.intent(intent.payment_intent_id);
      expect(final.latest_payment_attempt?.authentication_data.three_ds).toMatchObject({ three_ds_authentication_status: 'Y', eci: '05' });
      const again = await postJson<{ message: string }>('/api/hosted/three_ds', { client_secret: intent.client_secret, outcome: 'fail' });
      expect(again.status).toBe(400);
      expect(again.body.message).toMatch(/^cannot authenticate PaymentAttempt: status is (CAPTURE_REQUESTED|SETTLED)$/);
    });

    it('failing the challenge fails the attempt and lets the shopper try again', async () => {
      const intent = await challenged();
      const failed = await postJson<HostedSessionView>('/api/hosted/three_ds', { client_secret: intent.client_secret, outcome: 'fail' });
      expect(failed.body).toMatchObject({ intent_status: 'REQUIRES_PAYMENT_METHOD', latest_attempt_status: 'FAILED', failure_code: 'authentication_failed' });
      const final = await merchant.intent(intent.payment_intent_id);
      expect(final.latest_payment_attempt?.authentication_data.three_ds).toMatchObject({ three_ds_authentication_status: 'N' });
    });

    it('keeps the manual-capture choice through the challenge', async () => {
      const intent = await merchant.createIntent({ payment_method: cardMethod(CARDS.threeDs, { auto_capture: false }) });
      const approved = await postJson<HostedSessionView>('/api/hosted/three_ds', { client_secret: intent.client_secret, outcome: 'approve' });
      expect(approved.body.intent_status).toBe('REQUIRES_CAPTURE');
    });
  });
});
