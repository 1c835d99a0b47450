import { randomInt } from 'node:crypto';
import { HostedSessionView } from '@paygrid/contracts';
import { waitFor } from '@paygrid/testing';
import { SANDBOX } from '../support/api-client';
import { CardDataSearch } from '../support/card-data-search';
import { queryE2eDatabase } from '../support/databases';
import { E2E_GATEWAY } from '../support/stack-settings';
import { acquiringWebhooks, cardMethod, Merchant, uniqueVisaNumber, useAcquiringE2eSettings } from './support/acquiring-e2e';

/**
 * Architecture rule 7, checked the way an auditor would: run the whole flow with a card number nobody
 * else uses (the sandbox approves any valid number) and a CVC, then search every place data lands (the
 * acquiring, gateway and webhook databases, every service log, every Kafka topic, every Redis key, the
 * webhook bodies) for the full number and the CVC. The only allowed home of the number is the encrypted
 * saved_cards.pan_ciphertext column, which must hold it encrypted (and does not contain it in clear).
 * The search itself (support/card-data-search.ts) is shared with the issuing suite.
 */
const PAN = uniqueVisaNumber();
const CVC = String(randomInt(100, 1000));
const search = new CardDataSearch(PAN, CVC);
const leaks = (text: string) => search.leaks(text);

describe('card data', () => {
  let merchant: Merchant;
  let webhooks: Awaited<ReturnType<typeof acquiringWebhooks>>;

  beforeAll(async () => {
    await useAcquiringE2eSettings();
    merchant = await Merchant.of(SANDBOX.master);
    webhooks = await acquiringWebhooks(merchant, '/cards');
  }, 120_000);

  afterAll(async () => {
    await webhooks?.close();
  });

  it('leaves the card number only in the encrypted column, and the CVC nowhere', async () => {
    const card = cardMethod(PAN, { cvc: CVC });
    // Through the API: a sale with a new customer (the card is saved), a manual capture and a refund.
    const sale = await merchant.createIntent({ payment_method: card, customer: { first_name: 'Audit' } });
    expect(sale.intent_status).toBe('SUCCEEDED');
    const auth = await merchant.createIntent({ payment_method: cardMethod(PAN, { cvc: CVC, auto_capture: false }) });
    await merchant.post(`/v2/payment_intents/${auth.payment_intent_id}/capture`, {});
    await merchant.post('/v2/payment/refunds', { payment_intent_id: sale.payment_intent_id, amount: '1.00', reason: 'audit' });
    // A refused request with the card (the 400 must not echo it).
    const refused = await merchant.post('/v2/payment_intents/create', { ...cardOnlyBody(card), amount: '1.001' });
    expect(refused.status).toBe(400);
    expect(leaks(refused.text)).toEqual([]);
    // Through the hosted page: the same card typed by the shopper.
    const hosted = await merchant.createIntent({ customer_id: sale.customer_id });
    const paid = await fetch(`${E2E_GATEWAY}/api/hosted/checkout/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_secret: hosted.client_secret, card: card.card }),
    });
    const session = (await paid.json()) as HostedSessionView;
    expect(session.intent_status).toBe('SUCCEEDED');
    expect(leaks(JSON.stringify(session))).toEqual([]);

    await merchant.waitForIntent(sale.payment_intent_id, (intent) => intent.latest_payment_attempt?.attempt_status === 'SETTLED', 'settlement');
    await waitFor(() => webhooks.receiver.received('/cards').length >= 10, { what: 'the webhooks of the flow', timeoutMs: 30_000 });

    const saved = await queryE2eDatabase<{ pan_ciphertext: string; masked_number: string }>(
      'paygrid_acquiring',
      'SELECT pan_ciphertext, masked_number FROM saved_cards WHERE customer_id = $1',
      [sale.customer_id],
    );
    expect(saved).toHaveLength(1);
    expect(saved[0].masked_number).toBe(`${PAN.slice(0, 6)}******${PAN.slice(-4)}`);
    expect(saved[0].pan_ciphertext).toMatch(/^v1\./);
    expect(leaks(saved[0].pan_ciphertext)).toEqual([]);

    const hits = [
      ...(await search.searchDatabase('paygrid_acquiring', ['saved_cards.pan_ciphertext'])),
      ...(await search.searchDatabase('paygrid_gateway')),
      ...(await search.searchDatabase('paygrid_webhooks')),
      ...(await search.searchDatabase('paygrid_issuing')),
      ...search.searchLogs(),
      ...webhooks.receiver.received().flatMap((request) => leaks(request.rawBody).map((leak) => `webhook ${request.path}: ${leak}`)),
      ...(await search.searchKafka()),
      ...(await search.searchRedis()),
    ];
    expect(hits).toEqual([]);
  }, 300_000);
});

function cardOnlyBody(method: ReturnType<typeof cardMethod>) {
  return { amount: '1.00', currency: 'USD', merchant_order_id: 'audit', description: 'audit', return_url: 'https://shop.example', payment_method: method };
}
