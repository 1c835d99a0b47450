import { CardOrderView, CardTransactionView, IssuingTransactionEvents, Page, SimulatedTransactionView } from '@paygrid/contracts';
import { waitFor } from '@paygrid/testing';
import { api, SANDBOX, tokenFor } from '../support/api-client';
import { Delivered, Issuer, issuingWebhooks } from './support/issuing-e2e';

/**
 * Card transactions through the gateway on the real stack (issue 11, part B): recharge → authorize 10.00 (the
 * card balance down by exactly 10.00) → reverse (back to the cent) → authorize and let it clear → refund;
 * declines for a frozen card, an MCC outside the controls and too little money; every issuing.transaction.*
 * webhook delivered once. Clearing runs on the stack's AUTH_CLEARING_DELAY_MS; every wait polls with a deadline.
 */
describe('issuing card transactions', () => {
  let issuer: Issuer;
  let webhooks: Awaited<ReturnType<typeof issuingWebhooks>>;

  async function simulate<T = SimulatedTransactionView>(path: string, body: Record<string, unknown>) {
    return api<T>('POST', `/v1/simulation/issuing/${path}`, { token: await tokenFor(SANDBOX.master), body });
  }
  async function authorize(cardId: string, amount: number, overrides: Record<string, unknown> = {}): Promise<SimulatedTransactionView> {
    const answered = await simulate('authorization', {
      card_id: cardId,
      transaction_amount: amount,
      transaction_currency: 'USD',
      merchant_name: 'Sandbox Books',
      merchant_category_code: '5942',
      transaction_status: 'APPROVED',
      ...overrides,
    });
    expect(answered.status).toBe(200);
    return answered.body;
  }
  async function fundedCard(amount: number, extra: Record<string, unknown> = {}): Promise<string> {
    const cardId = await issuer.activeCard(extra);
    const order = await issuer.ok(issuer.post<CardOrderView>(`/cards/${cardId}/recharge`, { amount }));
    expect((await issuer.settled(order)).order_status).toBe('SUCCESS');
    return cardId;
  }
  const balanceOf = async (cardId: string) => (await issuer.card(cardId)).available_balance;
  const eventsOf = (cardId: string): Delivered[] => webhooks.events().filter((event) => event.data.card_id === cardId);

  beforeAll(async () => {
    issuer = await Issuer.of(SANDBOX.master);
    webhooks = await issuingWebhooks(issuer, '/card-transactions', ['issuing.transaction.*']);
  }, 120_000);

  afterAll(async () => {
    await webhooks?.close();
  });

  it('authorizes, reverses to the cent, clears and refunds, with each webhook once', async () => {
    const cardId = await fundedCard(120.37);
    const held = await authorize(cardId, 10);
    expect(held).toMatchObject({ transaction_type: 'AUTHORIZATION', transaction_status: 'APPROVED', billing_amount: '10.00', card_available_balance: '110.37' });
    expect(held.card_number).toMatch(/^\d{6}\*{6}\d{4}$/);
    expect(await balanceOf(cardId)).toBe(110.37);

    const reversed = await simulate('reversal', { transaction_id: held.transaction_id });
    expect(reversed).toMatchObject({ status: 200, body: { transaction_type: 'REVERSAL', transaction_status: 'REVERSED', original_transaction_id: held.transaction_id } });
    expect(await balanceOf(cardId)).toBe(120.37);
    expect(await simulate('reversal', { transaction_id: held.transaction_id })).toMatchObject({
      status: 400,
      body: { code: 400, message: 'Card reversal transaction is error' },
    });

    const spent = await authorize(cardId, 20.37);
    const cleared = await waitFor(
      async () => {
        const current = await issuer.ok(issuer.get<CardTransactionView>(`/transactions/${spent.transaction_id}`));
        return current.posted_time ? current : undefined;
      },
      { what: 'the authorization to clear', timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(cleared).toMatchObject({ transaction_status: 'APPROVED', billing_amount: '20.37' });
    expect(await balanceOf(cardId)).toBe(100);

    const refund = await simulate('refund', { transaction_id: spent.transaction_id, amount: 5.37 });
    expect(refund).toMatchObject({ status: 200, body: { transaction_type: 'REFUND', billing_amount: '5.37', card_available_balance: '105.37' } });
    expect(await balanceOf(cardId)).toBe(105.37);

    const listed = await issuer.ok(issuer.get<Page<CardTransactionView>>(`/transactions?card_id=${cardId}&page_size=10&page_number=1`));
    expect(listed.data.map((transaction) => transaction.transaction_type)).toEqual(['REFUND', 'AUTHORIZATION', 'REVERSAL', 'AUTHORIZATION']);

    const expected = [
      IssuingTransactionEvents.authorization,
      IssuingTransactionEvents.reversal,
      IssuingTransactionEvents.authorization,
      IssuingTransactionEvents.clearing,
      IssuingTransactionEvents.refund,
    ];
    const delivered = await waitFor(() => (eventsOf(cardId).length >= expected.length ? eventsOf(cardId) : undefined), {
      what: 'the transaction webhooks',
      timeoutMs: 30_000,
    });
    expect(delivered.map((event) => event.event_name).sort()).toEqual([...expected].sort());
    expect(new Set(delivered.map((event) => event.event_id)).size).toBe(delivered.length);
    expect(delivered.every((event) => event.event_type === 'ISSUING')).toBe(true);
    expect(JSON.stringify(delivered)).not.toMatch(/\d{16}/);
  }, 120_000);

  it('declines a frozen card, an MCC outside the controls and too little money, leaving the balance alone', async () => {
    const cardId = await fundedCard(15, { spending_controls: [{ interval: 'PER_TRANSACTION', categories: ['5942'] }] });
    expect(await authorize(cardId, 1, { merchant_category_code: '7995' })).toMatchObject({
      transaction_status: 'DECLINED',
      failure_reason: "merchant category 7995 is not allowed by the card's spending controls",
    });
    expect(await authorize(cardId, 15.01)).toMatchObject({ transaction_status: 'DECLINED', failure_reason: 'insufficient funds', card_available_balance: '15.00' });
    expect((await issuer.post(`/cards/${cardId}/status`, { card_status: 'FROZEN' })).status).toBe(200);
    expect(await authorize(cardId, 1)).toMatchObject({ transaction_status: 'DECLINED', failure_reason: 'card is FROZEN' });
    expect(await balanceOf(cardId)).toBe(15);

    expect(await simulate('authorization', { card_id: cardId, transaction_amount: 1, transaction_currency: 'USD', merchant_name: 'x', merchant_category_code: '59A2', transaction_status: 'APPROVED' })).toMatchObject({
      status: 400,
      body: { code: 400, message: 'MCC is error' },
    });
    const declined = await waitFor(() => (eventsOf(cardId).length >= 3 ? eventsOf(cardId) : undefined), { what: 'the declined webhooks', timeoutMs: 30_000 });
    expect(declined.map((event) => event.event_name)).toEqual(Array(3).fill(IssuingTransactionEvents.declined));
  }, 90_000);

  it("answers a sub-account's view of the master's transaction as not found", async () => {
    const cardId = await fundedCard(2);
    const held = await authorize(cardId, 1);
    const asSub = await issuer.actingFor(SANDBOX.sub1.accountId).get(`/transactions/${held.transaction_id}`);
    expect(asSub).toMatchObject({ status: 400, body: { type: 'invalid_request_error', code: 'transaction_not_found' } });
  }, 60_000);
});
