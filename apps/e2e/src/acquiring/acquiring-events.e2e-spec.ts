import { createHmac, timingSafeEqual } from 'node:crypto';
import { AcquiringEvents, DomainEvent, PaymentIntentView } from '@paygrid/contracts';
import { waitFor } from '@paygrid/testing';
import { SANDBOX } from '../support/api-client';
import { queryE2eDatabase } from '../support/databases';
import { acquiringWebhooks, CARDS, cardMethod, Merchant, useAcquiringE2eSettings } from './support/acquiring-e2e';

/**
 * Acquiring events (spec 6, decisions §8): each change is in the outbox exactly once, in the
 * transaction of the change, with the resource as the API returns it; and each flow's events reach a
 * merchant's webhook endpoint signed the way the official SDKs verify (HMAC-SHA512 of body+timestamp).
 */
type Delivered = DomainEvent<Record<string, unknown>>;

describe('acquiring events', () => {
  let merchant: Merchant;
  let webhooks: Awaited<ReturnType<typeof acquiringWebhooks>>;

  beforeAll(async () => {
    await useAcquiringE2eSettings();
    merchant = await Merchant.of(SANDBOX.master);
    webhooks = await acquiringWebhooks(merchant, '/acquiring');
  }, 120_000);

  afterAll(async () => {
    await webhooks?.close();
  });

  async function outboxEvents(intentId: string): Promise<Delivered[]> {
    const rows = await queryE2eDatabase<{ payload: string }>(
      'paygrid_acquiring',
      `SELECT payload FROM outbox WHERE payload::jsonb -> 'data' ->> 'payment_intent_id' = $1 ORDER BY id`,
      [intentId],
    );
    return rows.map((row) => JSON.parse(row.payload) as Delivered);
  }

  /** Webhooks received for one intent, each verified like the SDK's constructEvent. */
  function webhooksFor(intentId: string): Delivered[] {
    return webhooks.receiver
      .received()
      .filter((request) => request.path === '/acquiring')
      .map((request) => {
        const timestamp = String(request.headers['x-wk-timestamp']);
        const signature = Buffer.from(String(request.headers['x-wk-signature']), 'hex');
        const expected = createHmac('sha512', webhooks.endpoint.secret).update(request.rawBody + timestamp).digest();
        if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw new Error('bad webhook signature');
        return JSON.parse(request.rawBody) as Delivered;
      })
      .filter((event) => event.data.payment_intent_id === intentId);
  }

  async function webhookNames(intentId: string, expected: string[]): Promise<string[]> {
    return waitFor(
      () => {
        const names = webhooksFor(intentId).map((event) => event.event_name);
        return expected.every((name) => names.includes(name)) ? names : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200, what: `webhooks ${expected.join(', ')}` },
    );
  }

  it('writes each change of a paid intent to the outbox exactly once, attempt events with the card facts', async () => {
    const intent = await merchant.createIntent({ payment_method: cardMethod(CARDS.visa) });
    await merchant.waitForIntent(intent.payment_intent_id, (current) => current.latest_payment_attempt?.attempt_status === 'SETTLED', 'settlement');
    const events = await waitFor(async () => {
      const found = await outboxEvents(intent.payment_intent_id);
      return found.some((event) => event.event_name === AcquiringEvents.settlementSucceeded) ? found : undefined;
    }, { what: 'the settlement event' });
    expect(events.map((event) => event.event_name)).toEqual([
      AcquiringEvents.intentCreated,
      AcquiringEvents.attemptCreated,
      AcquiringEvents.attemptCaptureRequested,
      AcquiringEvents.intentSucceeded,
      AcquiringEvents.settlementSucceeded,
    ]);
    for (const event of events) {
      expect(event).toMatchObject({ event_type: 'ACQUIRING', account_id: SANDBOX.master.accountId });
      expect(event.data).not.toHaveProperty('client_secret');
    }
    const captured = events.find((event) => event.event_name === AcquiringEvents.attemptCaptureRequested) as Delivered;
    expect(captured.data).toMatchObject({
      auth_code: intent.latest_payment_attempt?.auth_code,
      rrn: intent.latest_payment_attempt?.rrn,
      arn: '',
      advice_code: '',
      authentication_data: { avs_result: 'Y', cvv_result: 'M' },
      payment_method: { card: { card_number: '424242******4242' } },
    });
    const settlement = events.at(-1) as Delivered;
    expect(settlement).toMatchObject({ account_id: SANDBOX.master.accountId });
    expect(settlement.data).toMatchObject({ currency: 'USD', amount: '25.00', fee_amount: '0.00', net_amount: '25.00' });
    expectNoInternalFields(settlement.data);
  });

  it('delivers a signed webhook for each flow', async () => {
    const success = await merchant.createIntent({ payment_method: cardMethod(CARDS.visa) });
    const declined = await merchant.createIntent({ payment_method: cardMethod(CARDS.declined) });
    const fraud = await merchant.createIntent({ payment_method: cardMethod(CARDS.fraud) });
    const threeDs = await merchant.createIntent({ payment_method: cardMethod(CARDS.threeDs) });
    const asynchronous = await merchant.createIntent({ payment_method: cardMethod(CARDS.async) });
    const manual = await merchant.createIntent({ payment_method: cardMethod(CARDS.visa, { auto_capture: false }) });
    await merchant.post(`/v2/payment_intents/${manual.payment_intent_id}/capture`, { amount_to_capture: '10.00' });
    const cancelled = await merchant.createIntent({ payment_method: cardMethod(CARDS.visa, { auto_capture: false }) });
    await merchant.post(`/v2/payment_intents/${cancelled.payment_intent_id}/cancel`, { cancellation_reason: 'duplicate' });
    const refunded = await merchant.post<{ payment_refund_id: string }>('/v2/payment/refunds', {
      payment_intent_id: success.payment_intent_id,
      amount: '5.00',
      reason: 'requested_by_customer',
    });
    expect(refunded.status).toBe(200);

    const expectations: [PaymentIntentView, string[]][] = [
      [success, [AcquiringEvents.intentCreated, AcquiringEvents.attemptCaptureRequested, AcquiringEvents.intentSucceeded, AcquiringEvents.refundCreated, AcquiringEvents.refundSucceeded, AcquiringEvents.settlementSucceeded]],
      [declined, [AcquiringEvents.attemptFailed, AcquiringEvents.intentPaymentFailed]],
      [fraud, [AcquiringEvents.attemptFailed, AcquiringEvents.intentFailed]],
      [threeDs, [AcquiringEvents.attemptCreated, AcquiringEvents.intentRequiresAction]],
      [asynchronous, [AcquiringEvents.intentPending, AcquiringEvents.intentSucceeded]],
      [manual, [AcquiringEvents.attemptAuthorized, AcquiringEvents.intentRequiresCapture, AcquiringEvents.attemptCaptureRequested, AcquiringEvents.intentSucceeded]],
      [cancelled, [AcquiringEvents.attemptCancelled, AcquiringEvents.intentCancelled]],
    ];
    for (const [intent, names] of expectations) {
      const received = await webhookNames(intent.payment_intent_id, names);
      expect(received).toEqual(expect.arrayContaining(names));
    }
    const failed = webhooksFor(declined.payment_intent_id).find((event) => event.event_name === AcquiringEvents.attemptFailed) as Delivered;
    expect(failed.data).toMatchObject({ failure_code: 'card_declined', advice_code: '03' });
    // Issue 13 item 9: refund and settlement webhooks show the API's resource; the account is the envelope's.
    const moneyEvents = webhooksFor(success.payment_intent_id).filter((event) => /^acquiring\.(refund|settlement)\./.test(event.event_name));
    expect(moneyEvents.length).toBeGreaterThanOrEqual(3);
    for (const event of moneyEvents) {
      expect(event.account_id).toBe(SANDBOX.master.accountId);
      expectNoInternalFields(event.data);
    }
    const refundCreated = moneyEvents.find((event) => event.event_name === AcquiringEvents.refundCreated) as Delivered;
    expect(refundCreated.data).toMatchObject({ payment_refund_id: refunded.body.payment_refund_id, amount: '5.00', currency: 'USD' });
  });
});

function expectNoInternalFields(data: Record<string, unknown>): void {
  for (const internal of ['account_id', 'master_account_id', 'amount_minor', 'fee_amount_minor', 'net_amount_minor']) {
    expect(data).not.toHaveProperty(internal);
  }
}
