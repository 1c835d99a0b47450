import { PaymentIntentView, PayoutView } from '@paygrid/contracts';
import { waitFor } from '@paygrid/testing';
import { ApiResponse } from '../support/api-client';
import { CARDS, cardMethod, intentBody, useAcquiringE2eSettings } from '../acquiring/support/acquiring-e2e';
import { SubAccount, US_BANK_ACCOUNT } from '../payouts/support/payouts-e2e';
import { conformance, conforms, listOf, oneOf, pageOf, Shape } from './sdk-shapes.support';

/**
 * SDK shapes of `client.payment.*` (wire-compat §9): every landed acquiring and payouts route driven with
 * the body the official SDK sends (`{}` where it sends `{}`), every documented response field checked for
 * presence and type. Runs on a fresh sub-account (x-on-behalf-of, as the SDK sends it) so its balances and
 * lists are its own.
 */
const MASKED_CARD: Shape = {
  card_name: 'string',
  card_number: 'string',
  brand: 'string',
  bin: 'string',
  last4: 'string',
  expiry_month: 'string',
  expiry_year: 'string',
  billing: 'object',
  auto_capture: 'boolean',
};

/** §9.7. advice_code is "" until a processor advises (the SDK's enum has no empty value; docs/conformance.md). */
const ATTEMPT: Shape = {
  attempt_id: 'string',
  amount: 'string',
  currency: 'string',
  captured_amount: 'string',
  refunded_amount: 'string',
  create_time: 'string',
  update_time: 'string',
  complete_time: 'string',
  cancellation_reason: 'string',
  auth_code: 'string',
  arn: 'string',
  rrn: 'string',
  advice_code: oneOf('', '01', '02', '03', '21', '85'),
  authentication_data: { avs_result: 'string', cvv_result: oneOf('M', 'N', 'P', 'U'), three_ds: 'object|null' },
  payment_method: { card: MASKED_CARD },
  failure_code: 'string',
  attempt_status: oneOf('INITIATED', 'AUTHENTICATION_REDIRECTED', 'PENDING_AUTHORIZATION', 'AUTHORIZED', 'CAPTURE_REQUESTED', 'SETTLED', 'SUCCEEDED', 'CANCELLED', 'EXPIRED', 'FAILED'),
};

/** §9.6 (cancel_time only once CANCELLED; next_action and latest_payment_attempt null when there is none). */
const INTENT: Shape = {
  payment_intent_id: 'string',
  amount: 'string',
  currency: 'string',
  intent_status: oneOf('REQUIRES_PAYMENT_METHOD', 'REQUIRES_CUSTOMER_ACTION', 'REQUIRES_CAPTURE', 'PENDING', 'SUCCEEDED', 'CANCELLED', 'FAILED'),
  description: 'string',
  available_payment_method_types: 'array',
  captured_amount: 'string',
  cancel_time: 'string?',
  cancellation_reason: 'string',
  client_secret: 'string',
  merchant_order_id: 'string',
  metadata: 'object',
  next_action: 'object|null',
  return_url: 'string',
  create_time: 'string',
  complete_time: 'string',
  update_time: 'string',
  latest_payment_attempt: 'object|null',
};
const INTENT_WITH_ATTEMPT: Shape = { ...INTENT, latest_payment_attempt: ATTEMPT };
const CANCELLED_INTENT: Shape = { ...INTENT, cancel_time: 'string', intent_status: oneOf('CANCELLED') };

/** §9.8, with the additions the SDK allows (payment_intent_id, reason, times). */
const REFUND: Shape = {
  payment_refund_id: 'string',
  payment_attempt_id: 'string',
  amount: 'string',
  currency: 'string',
  refund_status: oneOf('INITIATED', 'PROCESSING', 'SUCCEEDED', 'FAILED', 'REVERSAL_INITIATED', 'REVERSAL_PROCESSING', 'REVERSAL_SUCCEEDED'),
  payment_intent_id: 'string',
  reason: 'string',
  create_time: 'string',
};

/** §9.9: an open object for the SDK; the fields docs/acquiring.md documents. */
const SETTLEMENT: Shape = {
  settlement_id: 'string',
  settlement_batch_id: 'string',
  payment_intent_id: 'string',
  payment_attempt_id: 'string',
  merchant_order_id: 'string',
  currency: 'string',
  amount: 'string',
  fee_amount: 'string',
  net_amount: 'string',
  settlement_status: oneOf('SUCCEEDED'),
  settled_time: 'string',
};

const BALANCE: Shape = { currency: 'string', available_balance: 'string', pending_balance: 'string' };

/** §9.11: the SDK's and the spec's statuses (they disagree; wire-compat §15 follows the spec). */
const PAYOUT: Shape = {
  payout_id: 'string',
  payout_currency: 'string',
  payout_amount: 'string',
  statement_descriptor: 'string',
  payout_status: oneOf('INITIATED', 'PROCESSING', 'SUCCEEDED', 'COMPLETED', 'FAILED', 'FAILED_REFUNDED'),
  create_time: 'string',
  completed_time: 'string?',
  internal_note: 'string',
};

const BANK_ACCOUNT: Shape = {
  id: 'string',
  currency: 'string',
  account_number: 'string',
  bank_name: 'string',
  swift_code: 'string',
  bank_country_code: 'string',
  account_name: 'string',
  account_status: oneOf('Valid', 'Invalid'),
  bank_address: 'string',
};

describe('SDK shapes: client.payment.*', () => {
  let account: SubAccount;
  let paid: PaymentIntentView;
  /** bankAccounts.create's answer: one settlement account per currency, which payouts then need. */
  let bankAccount: ApiResponse<Record<string, unknown>>;

  beforeAll(async () => {
    await useAcquiringE2eSettings();
    account = await SubAccount.create('Shapes');
    paid = await account.fundWithCard('40.00', '40.00');
    bankAccount = await account.addBankAccount();
  }, 180_000);

  const post = <T = unknown>(path: string, body: unknown) => account.post<T>(path, body);
  const get = <T = unknown>(path: string) => account.get<T>(path);
  const newIntent = async (extra: Record<string, unknown> = {}) => (await post<PaymentIntentView>('/v2/payment_intents/create', intentBody(extra))).body;

  /** Each route: how the SDK calls it, and the shape it reads. */
  const routes: [string, () => Promise<ApiResponse<unknown>>, Shape][] = [
    ['paymentIntents.create (no card)', () => post('/v2/payment_intents/create', intentBody()), INTENT],
    ['paymentIntents.create (card)', () => post('/v2/payment_intents/create', intentBody({ payment_method: cardMethod(CARDS.visa) })), INTENT_WITH_ATTEMPT],
    ['paymentIntents.list()', () => get('/v2/payment_intents'), pageOf(INTENT)],
    ['paymentIntents.list(filters)', () => get('/v2/payment_intents?page_size=10&page_number=1&intent_status=SUCCEEDED'), pageOf(INTENT_WITH_ATTEMPT)],
    ['paymentIntents.retrieve', () => get(`/v2/payment_intents/${paid.payment_intent_id}`), INTENT_WITH_ATTEMPT],
    ['paymentIntents.update', async () => post(`/v2/payment_intents/${(await newIntent()).payment_intent_id}`, { description: 'Updated', metadata: { k: 'v' } }), INTENT],
    [
      'paymentIntents.confirm(card)',
      async () => post(`/v2/payment_intents/${(await newIntent()).payment_intent_id}/confirm`, { payment_method: cardMethod(CARDS.visa) }),
      INTENT_WITH_ATTEMPT,
    ],
    [
      'paymentIntents.capture() sends {}',
      async () => post(`/v2/payment_intents/${(await newIntent({ payment_method: cardMethod(CARDS.visa, { auto_capture: false }) })).payment_intent_id}/capture`, {}),
      INTENT_WITH_ATTEMPT,
    ],
    ['paymentIntents.cancel() sends {}', async () => post(`/v2/payment_intents/${(await newIntent()).payment_intent_id}/cancel`, {}), CANCELLED_INTENT],
    ['paymentAttempts.list()', () => get('/v2/payment/payment_attempts'), pageOf(ATTEMPT)],
    ['paymentAttempts.retrieve', () => get(`/v2/payment/payment_attempts/${paid.latest_payment_attempt?.attempt_id}`), ATTEMPT],
    ['refunds.create', () => post('/v2/payment/refunds', { payment_intent_id: paid.payment_intent_id, amount: '1.00', reason: 'requested_by_customer' }), REFUND],
    ['refunds.list()', () => get('/v2/payment/refunds'), pageOf(REFUND)],
    ['settlements.list()', () => get(`/v2/payment/settlements?payment_intent_id=${paid.payment_intent_id}`), pageOf(SETTLEMENT)],
    ['balances.list()', () => get('/v2/payment/balances'), pageOf(BALANCE)],
    ['balances.retrieve', () => get('/v2/payment/balances/USD'), BALANCE],
    ['payouts.create', () => post('/v2/payment/payout/create', { payout_currency: 'USD', payout_amount: '2.00', statement_descriptor: 'SDK SHAPES' }), PAYOUT],
    ['payouts.list()', () => get('/v2/payment/payout'), pageOf(PAYOUT)],
    ['bankAccounts.create', async () => bankAccount, BANK_ACCOUNT],
    ['bankAccounts.list()', () => get('/v2/payment/bankaccount'), pageOf(BANK_ACCOUNT)],
  ];

  it.each(routes)('%s', async (route, call, shape) => {
    expect(conformance(route, await call(), shape)).toEqual(conforms(route));
  });

  it('refunds.retrieve, payouts.retrieve, bankAccounts.retrieve and update', async () => {
    const refund = await post<{ payment_refund_id: string }>('/v2/payment/refunds', { payment_intent_id: paid.payment_intent_id, amount: '1.00', reason: 'duplicate' });
    expect(conformance('refunds.retrieve', await get(`/v2/payment/refunds/${refund.body.payment_refund_id}`), REFUND)).toEqual(conforms('refunds.retrieve'));
    const payout = await account.payout('1.00');
    expect(conformance('payouts.retrieve', await get(`/v2/payment/payout/${(payout.body as PayoutView).payout_id}`), PAYOUT)).toEqual(conforms('payouts.retrieve'));
    const id = bankAccount.body.id as string;
    expect(conformance('bankAccounts.retrieve', await get(`/v2/payment/bankaccount/${id}`), BANK_ACCOUNT)).toEqual(conforms('bankAccounts.retrieve'));
    const { currency: _currency, ...updateBody } = US_BANK_ACCOUNT;
    const updated = await post(`/v2/payment/bankaccount/${id}`, { ...updateBody, bank_name: 'Renamed Bank' });
    expect(conformance('bankAccounts.update', updated, BANK_ACCOUNT)).toEqual(conforms('bankAccounts.update'));
  });

  it('paymentIntents.confirm() sends {} and gets the intent back', async () => {
    // The customer's first payment saves the card; the SDK then confirms a new intent of theirs with {}.
    const first = await newIntent({ customer: { email: 'sdk-shapes@example.com' }, payment_method: cardMethod(CARDS.visa) });
    const intent = await newIntent({ customer_id: first.customer_id });
    const confirmed = await post(`/v2/payment_intents/${intent.payment_intent_id}/confirm`, {});
    expect(conformance('paymentIntents.confirm()', confirmed, INTENT_WITH_ATTEMPT)).toEqual(conforms('paymentIntents.confirm()'));
    const settled = await waitFor(async () => {
      const list = await get<{ data: unknown[] }>(`/v2/payment/settlements?payment_intent_id=${intent.payment_intent_id}`);
      return list.body.data.length > 0 ? list : undefined;
    }, { what: 'the settlement of the confirmed intent' });
    expect(conformance('settlements.list(payment_intent_id)', settled, { data: listOf(SETTLEMENT) })).toEqual(conforms('settlements.list(payment_intent_id)'));
  });
});
