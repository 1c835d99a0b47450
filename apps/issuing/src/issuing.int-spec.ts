import { verifyLedger } from '@paygrid/ledger';
import {
  CardholderView,
  CardOrderView,
  CardView,
  IssuingCommand,
  sandboxPoolCard,
  SANDBOX_POOL_BIN,
} from '@paygrid/contracts';
import { waitFor } from '@paygrid/testing';
import { IssuingTransport } from './modules/crypto/card-secrets';
import { IssuingApp, refusalOf, resultOf, SANDBOX_ACTORS, startIssuingApp } from './test/issuing-app.harness';

/**
 * The issuing service against the real Postgres, Redis and Kafka: the card lifecycle with its money, the
 * concurrency of withdrawals, pool cards, sensitive details and tenancy. Commands travel over the test's own
 * Kafka stack (libs/testing's ServiceHarness); sandbox delays are short, so every wait polls with a deadline.
 */
const master = SANDBOX_ACTORS.master;
const sub1 = SANDBOX_ACTORS.sub1;
const page = { page_size: 10, page_number: 1 };
let emailSequence = 0;

function cardholderBody(overrides: Record<string, unknown> = {}) {
  emailSequence += 1;
  return {
    email: `holder${emailSequence}.${Date.now()}@example.com`,
    first_name: 'Ada',
    last_name: 'Lovelace',
    country_code: 'SG',
    phone_number: `+658${String(1_000_000 + emailSequence * 7919 + (Date.now() % 100_000)).slice(-7)}`,
    date_of_birth: '1990-01-15',
    ...overrides,
  };
}

describe('issuing service', () => {
  let issuing: IssuingApp;
  let shareProductId: string;

  const send: IssuingApp['send'] = (definition, payload, actor) => issuing.send(definition, payload, actor);

  async function verifiedCardholder(actor = master, overrides: Record<string, unknown> = {}): Promise<string> {
    const created = resultOf(await send(IssuingCommand.createCardholder, cardholderBody(overrides), actor));
    expect(created.cardholder_status).toBe('PENDING');
    await waitFor(
      async () => resultOf(await send(IssuingCommand.retrieveCardholder, { cardholder_id: created.cardholder_id }, actor)).cardholder_status === 'SUCCESS',
      { what: 'KYC to succeed', timeoutMs: 15_000 },
    );
    return created.cardholder_id;
  }

  async function cardOf(cardId: string, actor = master): Promise<CardView> {
    return resultOf(await send(IssuingCommand.retrieveCard, { card_id: cardId }, actor));
  }

  async function activeCard(actor = master, productId = shareProductId): Promise<string> {
    const cardholderId = await verifiedCardholder(actor);
    const created = resultOf(await send(IssuingCommand.createCard, { card_currency: 'USD', cardholder_id: cardholderId, card_product_id: productId }, actor));
    await waitFor(async () => (await cardOf(created.card_id, actor)).card_status === 'ACTIVE', { what: 'the virtual card to be issued' });
    return created.card_id;
  }

  async function settled(order: CardOrderView, actor = master): Promise<CardOrderView> {
    return waitFor(
      async () => {
        const current = resultOf(await send(IssuingCommand.retrieveCardOrder, { card_order_id: order.card_order_id }, actor));
        return current.order_status === 'SUCCESS' || current.order_status === 'FAILED' ? current : undefined;
      },
      { what: `card order ${order.card_order_id} to finish` },
    );
  }

  beforeAll(async () => {
    issuing = await startIssuingApp();
    const products = resultOf(await send(IssuingCommand.listProducts, page, master));
    shareProductId = products.data.find((product) => product.card_bin === SANDBOX_POOL_BIN && product.mode_type === 'SHARE')?.product_id ?? '';
  }, 120_000);

  afterAll(async () => {
    await issuing?.close();
  });

  it('lists the seeded products: SHARE and SINGLE, simple and strict, one DISABLED', async () => {
    const products = resultOf(await send(IssuingCommand.listProducts, page, master));
    expect(products.total_items).toBe(4);
    expect(new Set(products.data.map((product) => product.mode_type))).toEqual(new Set(['SHARE', 'SINGLE']));
    expect(products.data.filter((product) => product.product_status === 'DISABLED')).toHaveLength(1);
    const strict = products.data.find((product) => product.mode_type === 'SINGLE');
    expect(strict?.required_fields.map((field) => field.name)).toEqual(
      expect.arrayContaining(['gender', 'nationality', 'identity', 'residential_address']),
    );
    expect(products.data[0].no_pin_payment_amount[0]).toEqual({ amount: expect.stringMatching(/^\d+\.\d{2}$/), currency: expect.any(String) });
  });

  it('walks a card from issue to cancel, moving money both ways, and refuses what a cancelled card cannot do', async () => {
    const cardId = await activeCard();
    const recharge = resultOf(await send(IssuingCommand.rechargeCard, { card_id: cardId, amount: 100.5 }, master));
    expect(recharge).toMatchObject({ order_type: 'CARD_RECHARGE', order_status: 'PENDING', amount: 100.5, card_currency: 'USD' });
    expect(await settled(recharge)).toMatchObject({ order_status: 'SUCCESS' });
    expect((await cardOf(cardId)).available_balance).toBe(100.5);

    const withdraw = resultOf(await send(IssuingCommand.withdrawCard, { card_id: cardId, amount: 40.25 }, master));
    expect(await settled(withdraw)).toMatchObject({ order_status: 'SUCCESS' });
    expect((await cardOf(cardId)).available_balance).toBe(60.25);

    for (const card_status of ['FROZEN', 'ACTIVE', 'CANCELLED'] as const) {
      const changed = resultOf(await send(IssuingCommand.updateCardStatus, { card_id: cardId, card_status, update_reason: 'walk' }, master));
      expect(changed).toMatchObject({ card_id: cardId, order_status: 'SUCCESS', update_reason: 'walk' });
      expect((await cardOf(cardId)).card_status).toBe(card_status);
    }
    // The balance left on a cancelled card goes back to the issuing balance.
    expect((await cardOf(cardId)).available_balance).toBe(0);
    expect(refusalOf(await send(IssuingCommand.rechargeCard, { card_id: cardId, amount: 1 }, master)).body).toEqual({
      code: 400,
      message: 'The card is not active.',
    });
    expect(refusalOf(await send(IssuingCommand.updateCardStatus, { card_id: cardId, card_status: 'ACTIVE' }, master)).body).toEqual({
      code: 400,
      message: 'Card status is invalid',
    });
    expect(await verifyLedger(issuing.dataSource)).toEqual([]);
  }, 60_000);

  it('fails a recharge whose cents are 13 and gives the money back', async () => {
    const cardId = await activeCard();
    const order = resultOf(await send(IssuingCommand.rechargeCard, { card_id: cardId, amount: 5.13 }, master));
    expect(await settled(order)).toMatchObject({ order_status: 'FAILED' });
    expect((await cardOf(cardId)).available_balance).toBe(0);
    expect(refusalOf(await send(IssuingCommand.withdrawCard, { card_id: cardId, amount: 0.01 }, master)).body).toEqual({
      code: 400,
      message: 'Card available limit insufficient',
    });
  }, 60_000);

  it('lets 20 concurrent withdrawals take a card to zero and never below', async () => {
    const cardId = await activeCard();
    await settled(resultOf(await send(IssuingCommand.rechargeCard, { card_id: cardId, amount: 10 }, master)));
    const replies = await Promise.all(Array.from({ length: 20 }, () => send(IssuingCommand.withdrawCard, { card_id: cardId, amount: 1 }, master)));
    const accepted = replies.filter((reply) => reply.ok);
    expect(accepted).toHaveLength(10);
    expect(replies.filter((reply) => !reply.ok).map((reply) => refusalOf(reply).body.message)).toEqual(
      Array(10).fill('Card available limit insufficient'),
    );
    for (const reply of accepted) if (reply.ok) await settled(reply.result);
    expect((await cardOf(cardId)).available_balance).toBe(0);
    expect(await verifyLedger(issuing.dataSource)).toEqual([]);
  }, 60_000);

  it('assigns a sandbox pool card and activates it with the carrier code, once', async () => {
    const transport = issuing.app.get(IssuingTransport);
    const cardholderId = await verifiedCardholder();
    const pool = sandboxPoolCard(1, 0);
    const unknown = transport.seal({ card_number: '4910901999999999' });
    expect(
      refusalOf(await send(IssuingCommand.assignCard, { cardholder_id: cardholderId, card_currency: 'USD', card_mode: 'SHARE', sealed_card_number: unknown }, master)).body,
    ).toEqual({ code: 400, message: 'card number not exist' });
    const assigned = resultOf(
      await send(
        IssuingCommand.assignCard,
        { cardholder_id: cardholderId, card_currency: 'USD', card_mode: 'SHARE', sealed_card_number: transport.seal({ card_number: pool.card_number }) },
        master,
      ),
    );
    expect(assigned).toMatchObject({ card_status: 'PENDING', order_status: 'SUCCESS' });
    const again = await send(
      IssuingCommand.assignCard,
      { cardholder_id: cardholderId, card_currency: 'USD', card_mode: 'SHARE', sealed_card_number: transport.seal({ card_number: pool.card_number }) },
      master,
    );
    expect(refusalOf(again).body.message).toBe('card number not exist');

    const activate = (code: string) =>
      send(IssuingCommand.activateCard, { card_id: assigned.card_id, sealed: transport.seal({ activation_code: code, pin: '4821' }) }, master);
    expect(refusalOf(await activate('000000')).body).toEqual({ code: 400, message: 'Invalid activation code.' });
    expect(resultOf(await activate(pool.activation_code))).toEqual({ request_status: 'SUCCESS' });
    expect(refusalOf(await activate(pool.activation_code)).body).toEqual({ code: 400, message: 'The card has been activated.' });
    const card = await cardOf(assigned.card_id);
    expect(card).toMatchObject({ card_status: 'ACTIVE', form_factor: 'PHYSICAL', card_number: `${pool.card_number.slice(0, 6)}******${pool.card_number.slice(-4)}` });
    const [row] = await issuing.dataSource.query('SELECT pin_hash, activation_code_hash FROM cards WHERE card_id = $1', [assigned.card_id]);
    expect(row.pin_hash).toMatch(/^scrypt\$/);
    expect(row.pin_hash).not.toContain('4821');
    expect(row.activation_code_hash).toBeNull();
  }, 60_000);

  it('shows the full number only sealed, and another account\'s card exactly like a missing one', async () => {
    const cardId = await activeCard();
    const secure = resultOf(await send(IssuingCommand.retrieveSecureDetails, { card_id: cardId }, master));
    const opened = issuing.app.get(IssuingTransport).open(secure.sealed);
    const card = await cardOf(cardId);
    expect(opened.card_number).toMatch(/^\d{16}$/);
    expect(opened.card_number?.slice(-4)).toBe(card.card_number.slice(-4));
    expect(opened.cvv).toMatch(/^\d{3}$/);
    expect(secure.expire_date).toMatch(/^\d{2}\/\d{2}$/);
    const [stored] = await issuing.dataSource.query('SELECT pan_ciphertext FROM cards WHERE card_id = $1', [cardId]);
    expect(stored.pan_ciphertext).toMatch(/^v2\.k1\./);
    expect(stored.pan_ciphertext).not.toContain(opened.card_number);

    const missing = refusalOf(await send(IssuingCommand.retrieveCard, { card_id: '0b9e7c1a-1111-4222-8333-444455556666' }, sub1));
    const foreign = refusalOf(await send(IssuingCommand.retrieveCard, { card_id: cardId }, sub1));
    expect(foreign).toEqual(missing);
    expect(foreign.body).toMatchObject({ type: 'card_error', code: 'card_not_found' });
  }, 60_000);

  it('fails KYC for the sandbox trigger and refuses cards for that cardholder', async () => {
    const created = resultOf(await send(IssuingCommand.createCardholder, cardholderBody({ email: `ada+kyc_fail.${Date.now()}@example.com` }), master));
    const decided = await waitFor(
      async () => {
        const holder: CardholderView = resultOf(await send(IssuingCommand.retrieveCardholder, { cardholder_id: created.cardholder_id }, master));
        return holder.cardholder_status === 'PENDING' ? undefined : holder;
      },
      { what: 'the KYC review' },
    );
    expect(decided.cardholder_status).toBe('FAILED');
    const refused = refusalOf(
      await send(IssuingCommand.createCard, { card_currency: 'USD', cardholder_id: created.cardholder_id, card_product_id: shareProductId }, master),
    );
    expect(refused.body).toMatchObject({ type: 'cardholder_error', code: 'cardholder_kyc_failed' });
  }, 30_000);

  it('answers cardholder rules with the spec\'s codes and stores nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ first_name: 'Ada1' }, 'invalid_first_name'],
      [{ date_of_birth: '2015-01-01' }, 'invalid_date_of_birth'],
      [{ phone_number: '12' }, 'invalid_phone_number'],
      [{ document_type: 'gif', document: 'R0lGODlhAQABAAAAACw=' }, 'file_type_not_supported'],
      [{ identity: { type: 'LICENCE', number: 'X1' } }, 'invalid_identity_type'],
    ];
    const before = await issuing.dataSource.query('SELECT count(*)::int AS n FROM cardholders');
    for (const [overrides, code] of cases) {
      expect(refusalOf(await send(IssuingCommand.createCardholder, cardholderBody(overrides), master)).body).toMatchObject({ type: 'cardholder_error', code });
    }
    const first = cardholderBody();
    resultOf(await send(IssuingCommand.createCardholder, first, master));
    expect(refusalOf(await send(IssuingCommand.createCardholder, { ...cardholderBody(), email: first.email.toUpperCase() }, master)).body.code).toBe(
      'email_duplicated',
    );
    expect(refusalOf(await send(IssuingCommand.createCardholder, { ...cardholderBody(), phone_number: first.phone_number }, master)).body.code).toBe(
      'phone_number_duplicated',
    );
    const after = await issuing.dataSource.query('SELECT count(*)::int AS n FROM cardholders');
    expect(after[0].n).toBe(before[0].n + 1);
  }, 30_000);
});
