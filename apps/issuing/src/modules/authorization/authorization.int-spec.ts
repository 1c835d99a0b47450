import { createHmac } from 'node:crypto';
import { verifyLedger } from '@paygrid/ledger';
import { IssuingCommand, IssuingTransactionCommand, IssuingTransactionEvents, SimulatedTransactionView } from '@paygrid/contracts';
import { WebhookReceiver } from '@paygrid/testing';
import { IssuingApp, refusalOf, resultOf, SANDBOX_ACTORS, startIssuingApp } from '../../test/issuing-app.harness';
import { AuthorizationService } from './authorization.service';
import { cardBalance, fundedCard } from './test/funded-card.fixture';

/**
 * The authorization path against the real Postgres, Redis and Kafka (issue 11, part B): holds, reversal,
 * clearing, refunds and chargebacks with their money and events; declines that move nothing; 200 racing
 * authorizations on one card; tenancy; the decision endpoint on a real local receiver. Clearing is due a minute
 * after an authorization here, and a test that wants it now runs the job's handler itself (the barrier it controls;
 * the job's own run later finds it cleared and changes nothing).
 */
const master = SANDBOX_ACTORS.master;
const sub1 = SANDBOX_ACTORS.sub1;

function authorization(cardId: string, amount: number, overrides: Record<string, unknown> = {}) {
  return {
    card_id: cardId,
    transaction_amount: amount,
    transaction_currency: 'USD',
    merchant_name: 'Corner Grocer',
    merchant_category_code: '5411',
    transaction_status: 'APPROVED',
    ...overrides,
  };
}

describe('card authorizations', () => {
  let issuing: IssuingApp;
  const send: IssuingApp['send'] = (definition, payload, actor) => issuing.send(definition, payload, actor);
  const authorize = async (cardId: string, amount: number, overrides: Record<string, unknown> = {}, actor = master) =>
    resultOf(await send(IssuingTransactionCommand.simulateAuthorization, authorization(cardId, amount, overrides), actor));

  async function clearNow(transactionId: string): Promise<SimulatedTransactionView> {
    await issuing.app.get(AuthorizationService).clear(transactionId);
    return resultOf(await send(IssuingTransactionCommand.retrieveTransaction, { transaction_id: transactionId }, master));
  }

  beforeAll(async () => {
    issuing = await startIssuingApp({ AUTH_CLEARING_DELAY_MS: '60000', AUTH_DECISION_TIMEOUT_MS: '5000' });
  }, 120_000);

  afterAll(async () => {
    await issuing?.close();
  });

  it('holds, reverses once, clears, refunds and charges back, each with its money and one event', async () => {
    const cardId = await fundedCard(issuing, master, 100);
    const held = await authorize(cardId, 10);
    expect(held).toMatchObject({ transaction_type: 'AUTHORIZATION', transaction_status: 'APPROVED', billing_amount: '10.00', card_available_balance: '90.00' });
    expect(held.authorization_code).toMatch(/^\d{6}$/);
    expect(await cardBalance(issuing, master, cardId)).toBe(90);

    const reversed = resultOf(await send(IssuingTransactionCommand.simulateReversal, { transaction_id: held.transaction_id }, master));
    expect(reversed).toMatchObject({ transaction_type: 'REVERSAL', transaction_status: 'REVERSED', original_transaction_id: held.transaction_id });
    expect(await cardBalance(issuing, master, cardId)).toBe(100);
    expect(refusalOf(await send(IssuingTransactionCommand.simulateReversal, { transaction_id: held.transaction_id }, master)).body).toEqual({
      code: 400,
      message: 'Card reversal transaction is error',
    });

    const spent = await authorize(cardId, 25.5);
    const cleared = await clearNow(spent.transaction_id);
    expect(cleared.transaction_status).toBe('APPROVED');
    expect(await cardBalance(issuing, master, cardId)).toBe(74.5);
    expect(refusalOf(await send(IssuingTransactionCommand.simulateReversal, { transaction_id: spent.transaction_id }, master)).body.message).toBe(
      'Card reversal transaction is error',
    );

    const refund = resultOf(await send(IssuingTransactionCommand.simulateRefund, { transaction_id: spent.transaction_id, amount: 5.5 }, master));
    expect(refund).toMatchObject({ transaction_type: 'REFUND', billing_amount: '5.50', card_available_balance: '80.00' });
    expect(refusalOf(await send(IssuingTransactionCommand.simulateRefund, { transaction_id: spent.transaction_id, amount: 20.01 }, master)).body).toMatchObject({
      code: 'amount_exceeds_remaining',
    });
    const credit = resultOf(
      await send(IssuingTransactionCommand.simulateChargeback, { transaction_id: spent.transaction_id, amount: 20, chargeback_type: 'CREDIT' }, master),
    );
    expect(credit).toMatchObject({ transaction_type: 'CHARGEBACK_CREDIT', card_available_balance: '100.00' });
    const debit = resultOf(
      await send(IssuingTransactionCommand.simulateChargeback, { transaction_id: credit.transaction_id, chargeback_type: 'DEBIT' }, master),
    );
    expect(debit).toMatchObject({ transaction_type: 'CHARGEBACK_DEBIT', billing_amount: '20.00', card_available_balance: '80.00' });
    expect(await cardBalance(issuing, master, cardId)).toBe(80);

    const listed = resultOf(await send(IssuingTransactionCommand.listTransactions, { page_size: 10, page_number: 1, card_id: cardId }, master));
    expect(listed.total_items).toBe(6);
    expect(listed.data[0].transaction_id).toBe(debit.transaction_id);

    const events = await (await issuing.harness.events()).until((event) => event.data && (event.data as { card_id?: string }).card_id === cardId && event.event_name.startsWith('issuing.transaction.'), {
      count: 7,
      what: 'transaction events of the card',
    });
    expect(events.map((event) => event.event_name).sort()).toEqual(
      [
        IssuingTransactionEvents.authorization,
        IssuingTransactionEvents.reversal,
        IssuingTransactionEvents.authorization,
        IssuingTransactionEvents.clearing,
        IssuingTransactionEvents.refund,
        IssuingTransactionEvents.chargebackCredit,
        IssuingTransactionEvents.chargebackDebit,
      ].sort(),
    );
    expect(JSON.stringify(events)).not.toMatch(/4910\d{12}/);
    expect(await verifyLedger(issuing.dataSource)).toEqual([]);
  }, 90_000);

  it('declines a frozen card, an MCC outside the controls, a closed channel and too little money, moving nothing', async () => {
    const cardId = await fundedCard(issuing, master, 30, {
      spending_controls: [{ interval: 'DAILY', categories: ['5411', '5812'], amount: 50 }],
      risk_controls: { allow_atm: false },
    });
    const outside = await authorize(cardId, 1, { merchant_category_code: '5999' });
    expect(outside).toMatchObject({ transaction_status: 'DECLINED', failure_reason: expect.stringContaining('5999') });
    expect((await authorize(cardId, 1, { channel: 'ATM' })).failure_reason).toContain('ATM');
    expect(await authorize(cardId, 30.01)).toMatchObject({ transaction_status: 'DECLINED', failure_reason: 'insufficient funds', card_available_balance: '30.00' });
    expect((await authorize(cardId, 20)).transaction_status).toBe('APPROVED');
    expect(await authorize(cardId, 10, { merchant_category_code: '5812' })).toMatchObject({ transaction_status: 'APPROVED', card_available_balance: '0.00' });
    // The daily control (50.00) would let 20 more through; the money does not.
    expect((await authorize(cardId, 1)).failure_reason).toBe('insufficient funds');

    await send(IssuingCommand.updateCardStatus, { card_id: cardId, card_status: 'FROZEN' }, master);
    expect(await authorize(cardId, 1)).toMatchObject({ transaction_status: 'DECLINED', failure_reason: 'card is FROZEN' });
    expect(await cardBalance(issuing, master, cardId)).toBe(0);

    expect(refusalOf(await send(IssuingTransactionCommand.simulateAuthorization, authorization(cardId, 1, { merchant_category_code: '54a1' }), master)).body).toEqual({
      code: 400,
      message: 'MCC is error',
    });
    expect(refusalOf(await send(IssuingTransactionCommand.simulateAuthorization, authorization(cardId, 1, { channel: 'TELEX' }), master)).body).toEqual({
      code: 400,
      message: 'Invalid channel code',
    });
    const events = await (await issuing.harness.events()).until(
      (event) => event.event_name === IssuingTransactionEvents.declined && (event.data as { card_id?: string }).card_id === cardId,
      { count: 5, what: 'declined events' },
    );
    expect(events).toHaveLength(5);
    expect(await verifyLedger(issuing.dataSource)).toEqual([]);
  }, 90_000);

  it('lets exactly 100 of 200 concurrent authorizations through on a card that covers 100, never below zero', async () => {
    const cardId = await fundedCard(issuing, master, 100);
    // One card's authorizations are decided one after another: the 200th waits for 199, so the client waits long.
    const client = await issuing.harness.commands();
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        client.send<SimulatedTransactionView>('issuing', IssuingTransactionCommand.simulateAuthorization.type, authorization(cardId, 1), {
          actor: master,
          commandId: `cmd_race_${index}_${cardId}`,
          timeoutMs: 120_000,
        }),
      ),
    );
    const outcomes = replies.map((reply) => resultOf(reply).transaction_status);
    expect(outcomes.filter((status) => status === 'APPROVED')).toHaveLength(100);
    expect(outcomes.filter((status) => status === 'DECLINED')).toHaveLength(100);
    expect(await cardBalance(issuing, master, cardId)).toBe(0);
    const [held] = await issuing.dataSource.query(
      `SELECT balance::text FROM ledger_accounts WHERE owner_id = $1 AND bucket = 'authorization_held'`,
      [cardId],
    );
    expect(held.balance).toBe('10000');
    expect(await verifyLedger(issuing.dataSource)).toEqual([]);
  }, 120_000);

  it("answers another account's transaction as not found under the connected account", async () => {
    const cardId = await fundedCard(issuing, master, 5);
    const held = await authorize(cardId, 1);
    expect(refusalOf(await send(IssuingTransactionCommand.retrieveTransaction, { transaction_id: held.transaction_id }, sub1)).body).toEqual({
      type: 'invalid_request_error',
      code: 'transaction_not_found',
      message: 'The transaction is not found under the connected account',
    });
    expect(refusalOf(await send(IssuingTransactionCommand.simulateReversal, { transaction_id: held.transaction_id }, sub1)).body.code).toBe('transaction_not_found');
    expect(refusalOf(await send(IssuingTransactionCommand.simulateAuthorization, authorization(cardId, 1), sub1)).body.code).toBe('card_not_found');
  }, 60_000);

  describe('real-time decisions', () => {
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await WebhookReceiver.start();
    });
    afterAll(async () => {
      await resultOf(await send(IssuingTransactionCommand.deleteDecisionEndpoint, {}, sub1));
      await receiver?.close();
    });

    it('asks the endpoint with a signed request, follows its answer, and falls back to the default on timeout', async () => {
      const cardId = await fundedCard(issuing, sub1, 50);
      const endpoint = resultOf(await send(IssuingTransactionCommand.setDecisionEndpoint, { url: receiver.url('/decide'), default_decision: 'APPROVE', timeout_ms: 500 }, sub1));
      expect(endpoint.signing_secret).toMatch(/^dsk_/);
      receiver.respond('/decide', (request) => {
        const asked = JSON.parse(request.rawBody) as { transaction_id: string; billing_amount: number };
        return { status: 200, body: JSON.stringify({ transaction_id: asked.transaction_id, response_code: asked.billing_amount > 10 ? '51' : '00' }) };
      });
      const approved = await authorize(cardId, 4, {}, sub1);
      expect(approved.transaction_status).toBe('APPROVED');
      const [asked] = receiver.received('/decide');
      const signature = createHmac('sha512', endpoint.signing_secret).update(`${asked.headers['x-auth-timestamp']}.${asked.rawBody}`).digest('hex');
      expect(asked.headers['x-auth-signature']).toBe(signature);
      expect(JSON.parse(asked.rawBody)).toMatchObject({ transaction_id: approved.transaction_id, card_id: cardId, card_balance: 50, merchant_category_code: '5411' });

      const refused = await authorize(cardId, 11, {}, sub1);
      expect(refused).toMatchObject({ transaction_status: 'DECLINED', failure_reason: expect.stringContaining('response_code 51') });

      // Too slow: the endpoint's default (APPROVE) applies, and the hold is taken.
      receiver.respond('/decide', { status: 200, body: '{}', delayMs: 2_000 });
      const byDefault = await authorize(cardId, 12, {}, sub1);
      expect(byDefault).toMatchObject({ transaction_status: 'APPROVED', card_available_balance: '34.00' });
      expect(await cardBalance(issuing, sub1, cardId)).toBe(34);
    }, 60_000);
  });
});
