import { CardOrderView, IssuingEvents, sandboxPoolCard } from '@paygrid/contracts';
import { waitFor } from '@paygrid/testing';
import { isEnvelope, SANDBOX } from '../support/api-client';
import { Delivered, Issuer, issuingWebhooks } from './support/issuing-e2e';

/**
 * Issuing through the gateway on the real stack (issue 10): the card walk with its money and its webhooks,
 * the one-time card rules, pool cards, concurrent withdrawals and tenancy. Sandbox delays are the e2e ones
 * (ISSUING_E2E_ENV); every wait polls with a deadline.
 */
describe('issuing cards', () => {
  let issuer: Issuer;
  let webhooks: Awaited<ReturnType<typeof issuingWebhooks>>;

  beforeAll(async () => {
    issuer = await Issuer.of(SANDBOX.master);
    webhooks = await issuingWebhooks(issuer, '/issuing');
  }, 120_000);

  afterAll(async () => {
    await webhooks?.close();
  });

  function eventsFor(sourceIds: string[]): Delivered[] {
    return webhooks.events().filter((event) => sourceIds.includes(event.source_id));
  }

  it('walks products → cardholder → KYC → card → recharge → withdraw → freeze → unfreeze → cancel, and refuses what a cancelled card cannot do', async () => {
    const product = await issuer.shareProduct();
    expect(product).toMatchObject({ mode_type: 'SHARE', product_status: 'ENABLED', card_currency: ['USD', 'SGD'] });

    const holder = await issuer.cardholder();
    expect(holder.cardholder_status).toBe('PENDING');
    await issuer.waitForCardholder(holder.cardholder_id, 'SUCCESS');
    const contact = { country: 'SG', state: 'SG', city: 'Singapore', postal_code: '018989', line1: '1 Sandbox Way' };
    expect(await issuer.post(`/cardholders/${holder.cardholder_id}`, { delivery_address: contact })).toMatchObject({
      status: 200,
      body: { cardholder_id: holder.cardholder_id, cardholder_status: 'SUCCESS' },
    });

    const created = await issuer.createCard({ card_currency: 'USD', cardholder_id: holder.cardholder_id, card_product_id: product.product_id });
    expect(created).toMatchObject({ card_status: 'PENDING', order_status: 'PENDING', cardholder_status: 'SUCCESS' });
    const active = await issuer.waitForCard(created.card_id, 'ACTIVE');
    expect(active.card_number).toMatch(/^\d{6}\*{6}\d{4}$/);
    expect(active.available_balance).toBe(0);

    const recharge = await issuer.ok(issuer.post<CardOrderView>(`/cards/${created.card_id}/recharge`, { amount: 250.75 }));
    expect(recharge).toMatchObject({ order_type: 'CARD_RECHARGE', amount: 250.75, order_status: 'PENDING' });
    expect((await issuer.settled(recharge)).order_status).toBe('SUCCESS');
    const withdraw = await issuer.ok(issuer.post<CardOrderView>(`/cards/${created.card_id}/withdraw`, { amount: 50.5 }));
    expect((await issuer.settled(withdraw)).order_status).toBe('SUCCESS');
    expect((await issuer.card(created.card_id)).available_balance).toBe(200.25);

    for (const card_status of ['FROZEN', 'ACTIVE', 'CANCELLED']) {
      const changed = await issuer.post(`/cards/${created.card_id}/status`, { card_status, update_reason: `e2e ${card_status}` });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ card_id: created.card_id, order_status: 'SUCCESS' });
    }
    const cancelled = await issuer.card(created.card_id);
    expect(cancelled).toMatchObject({ card_status: 'CANCELLED', available_balance: 0 });
    const refusedRecharge = await issuer.post(`/cards/${created.card_id}/recharge`, { amount: 1 });
    expect(refusedRecharge).toMatchObject({ status: 400, body: { code: 400, message: 'The card is not active.' } });
    const reactivate = await issuer.post(`/cards/${created.card_id}/status`, { card_status: 'ACTIVE' });
    expect(reactivate).toMatchObject({ status: 400, body: { code: 400, message: 'Card status is invalid' } });

    // Every named webhook of the walk, each delivered once (by event id), with the card balance on card events.
    const expected = [
      IssuingEvents.cardholderKycStatusChanged,
      IssuingEvents.cardholderUpdated,
      IssuingEvents.cardCreateSucceeded,
      IssuingEvents.cardRechargeSucceeded,
      IssuingEvents.cardWithdrawSucceeded,
      IssuingEvents.cardStatusUpdateSucceeded,
      IssuingEvents.cardStatusUpdateSucceeded,
      IssuingEvents.cardStatusUpdateSucceeded,
    ];
    const sources = [holder.cardholder_id, created.card_id, recharge.card_order_id, withdraw.card_order_id];
    const delivered = await waitFor(
      () => {
        const events = eventsFor(sources);
        return events.length >= expected.length ? events : undefined;
      },
      { what: 'the webhooks of the walk', timeoutMs: 30_000 },
    );
    expect(delivered.map((event) => event.event_name).sort()).toEqual([...expected].sort());
    expect(new Set(delivered.map((event) => event.event_id)).size).toBe(delivered.length);
    expect(delivered.every((event) => event.event_type === 'ISSUING')).toBe(true);
    const recharged = delivered.find((event) => event.event_name === IssuingEvents.cardRechargeSucceeded);
    expect(recharged?.data).toMatchObject({ card_order_id: recharge.card_order_id, card_available_balance: 250.75 });
    const statusEvents = delivered.filter((event) => event.event_name === IssuingEvents.cardStatusUpdateSucceeded);
    expect(statusEvents.map((event) => event.data.card_status).sort()).toEqual(['ACTIVE', 'CANCELLED', 'FROZEN']);
    expect(statusEvents[0].data).toEqual(expect.objectContaining({ update_reason: expect.any(String), available_balance: expect.any(Number), currency: 'USD' }));
    expect(JSON.stringify(delivered)).not.toMatch(/\d{16}/);
  }, 120_000);

  it('applies the one-time card rules', async () => {
    const cardholderId = await issuer.verifiedCardholder();
    const product = await issuer.shareProduct();
    const base = { card_currency: 'USD', cardholder_id: cardholderId, card_product_id: product.product_id, usage_type: 'ONE_TIME' };
    expect((await issuer.post('/cards', base)).body).toMatchObject({ type: 'card_error', code: 'auto_cancel_trigger cannot be empty' });
    expect((await issuer.post('/cards', { ...base, auto_cancel_trigger: 'ON_REFUND' })).body).toMatchObject({ code: 'invalid auto_cancel_trigger' });
    expect((await issuer.post('/cards', { ...base, auto_cancel_trigger: 'ON_AUTH', expiry_at: '2020-01-01T00:00:00Z' })).body).toMatchObject({
      code: 'invalid expiry_at',
    });
    const expiry = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const created = await issuer.createCard({ ...base, auto_cancel_trigger: 'ON_CAPTURE', expiry_at: expiry });
    const card = await issuer.waitForCard(created.card_id, 'ACTIVE');
    expect(card).toMatchObject({ usage_type: 'ONE_TIME', auto_cancel_trigger: 'ON_CAPTURE', expiry_at: expiry });
    const oneTime = { status: 400, body: { code: 400, message: 'This operation cannot be performed on One-Time Card.' } };
    expect(await issuer.post(`/cards/${created.card_id}/recharge`, { amount: 5 })).toMatchObject(oneTime);
    expect(await issuer.post(`/cards/${created.card_id}/withdraw`, { amount: 5 })).toMatchObject(oneTime);
    expect(await issuer.post(`/cards/${created.card_id}`, { card_limit: 50 })).toMatchObject(oneTime);
  }, 60_000);

  it('assigns a pool card and activates it with its carrier code, refusing a wrong code and a second activation', async () => {
    const cardholderId = await issuer.verifiedCardholder();
    const unknown = await issuer.post('/cards/assign', { cardholder_id: cardholderId, card_number: '4111111111111111', card_currency: 'USD', card_mode: 'SHARE' });
    expect(unknown).toMatchObject({ status: 400, body: { code: 400, message: 'card number not exist' } });
    const short = await issuer.post('/cards/assign', { cardholder_id: cardholderId, card_number: '491090', card_currency: 'USD', card_mode: 'SHARE' });
    expect(short.body).toMatchObject({ message: 'card number not exist' });

    // The pool's first free card (an earlier run of this suite on the same stack may have taken one).
    let assigned: { card_id: string; card_status: string; order_status: string } | undefined;
    let pool = sandboxPoolCard(1, 0);
    for (let sequence = 0; sequence < 10 && !assigned; sequence += 1) {
      pool = sandboxPoolCard(1, sequence);
      const answer = await issuer.post<{ card_id: string; card_status: string; order_status: string }>('/cards/assign', {
        cardholder_id: cardholderId,
        card_number: pool.card_number,
        card_currency: 'USD',
        card_mode: 'SHARE',
      });
      if (answer.status === 200) assigned = answer.body;
    }
    if (!assigned) throw new Error('the sandbox pool has no free card');
    expect(assigned).toMatchObject({ card_status: 'PENDING', order_status: 'SUCCESS' });
    const again = await issuer.post('/cards/assign', { cardholder_id: cardholderId, card_number: pool.card_number, card_currency: 'USD', card_mode: 'SHARE' });
    expect(again.body).toMatchObject({ message: 'card number not exist' });

    const activate = (activation_code: string) => issuer.post('/cards/activate', { card_id: assigned?.card_id, activation_code, pin: '2468' });
    expect(await activate('999999')).toMatchObject({ status: 400, body: { code: 400, message: 'Invalid activation code.' } });
    expect(await activate(pool.activation_code)).toMatchObject({ status: 200, body: { request_status: 'SUCCESS' } });
    expect(await activate(pool.activation_code)).toMatchObject({ status: 400, body: { code: 400, message: 'The card has been activated.' } });
    expect(await issuer.card(assigned.card_id)).toMatchObject({ card_status: 'ACTIVE', form_factor: 'PHYSICAL' });
  }, 60_000);

  it('lets 20 concurrent withdrawals through the gateway take a card to zero and never below', async () => {
    const cardId = await issuer.activeCard();
    await issuer.settled(await issuer.ok(issuer.post<CardOrderView>(`/cards/${cardId}/recharge`, { amount: 10 })));
    const answers = await Promise.all(Array.from({ length: 20 }, () => issuer.post<CardOrderView>(`/cards/${cardId}/withdraw`, { amount: 1 })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.map((answer) => answer.body)).toEqual(Array(10).fill({ code: 400, message: 'Card available limit insufficient' }));
    for (const answer of answers.filter((item) => item.status === 200)) await issuer.settled(answer.body);
    expect((await issuer.card(cardId)).available_balance).toBe(0);
  }, 60_000);

  it('keeps a sub-account\'s cardholders and cards to it: for anyone else they are missing', async () => {
    const forSub = issuer.actingFor(SANDBOX.sub1.accountId);
    const holder = await forSub.cardholder();
    const asMaster = await issuer.get(`/cardholders/${holder.cardholder_id}`);
    const missing = await issuer.get('/cardholders/0b9e7c1a-1111-4222-8333-444455556666');
    expect(asMaster.status).toBe(400);
    expect(asMaster.body).toEqual(missing.body);
    expect(asMaster.body).toMatchObject({ type: 'cardholder_error', code: 'cardholder_not_found' });
    expect((await forSub.get(`/cardholders/${holder.cardholder_id}`)).status).toBe(200);
  }, 30_000);

  it('refuses malformed issuing bodies in an envelope and stores nothing', async () => {
    for (const body of [{ amount: 0 }, { amount: 1.005 }, { amount: '10' }, { amount: 5, extra: true }]) {
      const answer = await issuer.post('/cards/0b9e7c1a-1111-4222-8333-444455556666/recharge', body);
      expect(answer.status).toBe(400);
      expect(isEnvelope(answer.body)).toBe(true);
    }
  });
});
