import { Page, PaymentIntentView, RefundView, SettlementView } from '@paygrid/contracts';
import { waitFor } from '@paygrid/testing';
import { SANDBOX } from '../support/api-client';
import { CARDS, cardMethod, Merchant, useAcquiringE2eSettings } from './support/acquiring-e2e';

/**
 * Refunds (wire-compat §9.8): up to the captured amount, never beyond, also when requests race; their
 * statuses INITIATED → PROCESSING → SUCCEEDED | FAILED. Settlements (spec 4.10): captured payments
 * settle into batches a moment later and the list shows only successful ones, with its filters.
 */
const REFUND_FIELDS = [
  'amount', 'complete_time', 'create_time', 'currency', 'failure_code', 'metadata', 'payment_attempt_id', 'payment_intent_id',
  'payment_refund_id', 'reason', 'refund_status', 'update_time',
];
const SETTLEMENT_FIELDS = [
  'amount', 'create_time', 'currency', 'fee_amount', 'merchant_order_id', 'net_amount', 'payment_attempt_id', 'payment_intent_id',
  'settled_time', 'settlement_batch_id', 'settlement_id', 'settlement_status',
];

describe('refunds and settlements', () => {
  let merchant: Merchant;

  beforeAll(async () => {
    await useAcquiringE2eSettings();
    merchant = await Merchant.of(SANDBOX.master);
  }, 120_000);

  const paid = (amount = '50.00') => merchant.createIntent({ amount, payment_method: cardMethod(CARDS.visa) });
  const refund = (intent: PaymentIntentView, amount: string, extra: Record<string, unknown> = {}) =>
    merchant.post<RefundView>('/v2/payment/refunds', { payment_intent_id: intent.payment_intent_id, amount, reason: 'requested_by_customer', ...extra });

  async function settledRefund(id: string): Promise<RefundView> {
    return waitFor(
      async () => {
        const current = await merchant.get<RefundView>(`/v2/payment/refunds/${id}`);
        return ['SUCCEEDED', 'FAILED'].includes(current.body.refund_status) ? current.body : undefined;
      },
      { what: `refund ${id} to finish`, intervalMs: 200 },
    );
  }

  it('refunds in parts up to the captured amount and refuses anything beyond', async () => {
    const intent = await paid('50.00');
    const first = await refund(intent, '20.00', { metadata: { ticket: 'A-1' } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      payment_intent_id: intent.payment_intent_id,
      payment_attempt_id: intent.latest_payment_attempt?.attempt_id,
      amount: '20.00',
      currency: 'USD',
      refund_status: 'INITIATED',
      reason: 'requested_by_customer',
      metadata: { ticket: 'A-1' },
    });
    expect(first.body.payment_refund_id).toMatch(/^re_[0-9A-Z]{26}$/);
    // Wire-compat §9.8's fields and the documented additions only (issue 13 item 9).
    expect(Object.keys(first.body).sort()).toEqual(REFUND_FIELDS);
    const second = await refund(intent, '30.00');
    expect(second.status).toBe(200);
    const beyond = await refund(intent, '0.01');
    expect(beyond.status).toBe(400);
    expect(beyond.body).toMatchObject({ code: 'refund_amount_exceeds_captured', message: 'amount: exceeds what is left to refund on this payment (0.00 USD)' });
    expect((await settledRefund(first.body.payment_refund_id)).refund_status).toBe('SUCCEEDED');
    expect((await settledRefund(second.body.payment_refund_id)).refund_status).toBe('SUCCEEDED');
    const attempt = await merchant.waitForIntent(
      intent.payment_intent_id,
      (current) => current.latest_payment_attempt?.refunded_amount === '50.00',
      'the refunded amount on the attempt',
    );
    expect(attempt.intent_status).toBe('SUCCEEDED');
  });

  it('never refunds more than was captured when refunds race', async () => {
    const intent = await paid('10.00');
    const responses = await Promise.all(Array.from({ length: 6 }, () => refund(intent, '3.00')));
    const accepted = responses.filter((response) => response.status === 200);
    expect(accepted).toHaveLength(3);
    expect(responses.filter((response) => response.status === 400)).toHaveLength(3);
    const listed = await merchant.get<Page<RefundView>>(`/v2/payment/refunds?payment_intent_id=${intent.payment_intent_id}`);
    expect(listed.body.total_items).toBe(3);
  });

  it('refunds only what a partial capture took', async () => {
    const intent = await merchant.createIntent({ amount: '40.00', payment_method: cardMethod(CARDS.visa, { auto_capture: false }) });
    await merchant.post(`/v2/payment_intents/${intent.payment_intent_id}/capture`, { amount_to_capture: '15.00' });
    expect((await refund(intent, '15.01')).status).toBe(400);
    expect((await refund(intent, '15.00')).status).toBe(200);
  });

  it('refuses to refund a payment that did not succeed, and an unknown or foreign one', async () => {
    const unpaid = await merchant.createIntent();
    expect((await refund(unpaid, '1.00')).body).toMatchObject({ message: 'cannot refund PaymentIntent: status is REQUIRES_PAYMENT_METHOD' });
    const intent = await paid();
    const other = await Merchant.of(SANDBOX.sub1);
    const foreign = await other.post('/v2/payment/refunds', { payment_intent_id: intent.payment_intent_id, amount: '1.00', reason: 'x' });
    expect(foreign.body).toMatchObject({ code: 'resource_not_found', message: 'payment_intent not found' });
  });

  it('fails a refund the sandbox processor declines and gives its amount back', async () => {
    const intent = await paid('5.00');
    const declined = await refund(intent, '1.13');
    expect((await settledRefund(declined.body.payment_refund_id)).refund_status).toBe('FAILED');
    const rest = await refund(intent, '5.00');
    expect(rest.status).toBe(200);
  });

  it('lists refunds by payment, merchant order and time, and retrieves one', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const intent = await paid();
    const created = await refund(intent, '1.00');
    const byOrder = await merchant.get<Page<RefundView>>(`/v2/payment/refunds?merchant_order_id=${intent.merchant_order_id}`);
    expect(byOrder.body.data.map((item) => item.payment_refund_id)).toEqual([created.body.payment_refund_id]);
    const byTime = await merchant.get<Page<RefundView>>(`/v2/payment/refunds?start_time=${encodeURIComponent(since)}&page_size=100`);
    expect(byTime.body.data.map((item) => item.payment_refund_id)).toContain(created.body.payment_refund_id);
    const one = await merchant.get<RefundView>(`/v2/payment/refunds/${created.body.payment_refund_id}`);
    expect(one.body.payment_refund_id).toBe(created.body.payment_refund_id);
    const missing = await merchant.get('/v2/payment/refunds/re_01JAAAAAAAAAAAAAAAAAAAAAAA');
    expect(missing.body).toMatchObject({ code: 'resource_not_found' });
  });

  it('settles captured payments into batches and lists only successful settlements, with filters', async () => {
    const intent = await paid('12.34');
    const settled = await merchant.waitForIntent(
      intent.payment_intent_id,
      (current) => current.latest_payment_attempt?.attempt_status === 'SETTLED',
      'the payment to settle',
    );
    expect(settled.latest_payment_attempt?.arn).toMatch(/^\d{23}$/);
    const page = await merchant.get<Page<SettlementView>>(`/v2/payment/settlements?payment_intent_id=${intent.payment_intent_id}`);
    expect(page.status).toBe(200);
    expect(page.body.total_items).toBe(1);
    const [settlement] = page.body.data;
    expect(settlement).toMatchObject({
      payment_intent_id: intent.payment_intent_id,
      payment_attempt_id: intent.latest_payment_attempt?.attempt_id,
      merchant_order_id: intent.merchant_order_id,
      currency: 'USD',
      amount: '12.34',
      fee_amount: '0.00',
      net_amount: '12.34',
      settlement_status: 'SUCCEEDED',
    });
    expect(Object.keys(settlement).sort()).toEqual(SETTLEMENT_FIELDS);
    const byBatch = await merchant.get<Page<SettlementView>>(
      `/v2/payment/settlements?settlement_batch_id=${settlement.settlement_batch_id}&page_size=100`,
    );
    expect(byBatch.body.data.map((item) => item.settlement_id)).toContain(settlement.settlement_id);
    expect(byBatch.body.data.every((item) => item.settlement_batch_id === settlement.settlement_batch_id)).toBe(true);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const none = await merchant.get<Page<SettlementView>>(`/v2/payment/settlements?settled_start_time=${encodeURIComponent(future)}`);
    expect(none.body).toEqual({ total_pages: 0, total_items: 0, data: [] });
    const unsettled = await merchant.createIntent({ payment_method: cardMethod(CARDS.visa, { auto_capture: false }) });
    const nothing = await merchant.get<Page<SettlementView>>(`/v2/payment/settlements?payment_intent_id=${unsettled.payment_intent_id}`);
    expect(nothing.body.total_items).toBe(0);
  });
});
