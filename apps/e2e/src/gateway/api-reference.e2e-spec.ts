import { randomUUID } from 'node:crypto';
import { CreatedWebhookEndpointView, PaymentIntentView, sandboxPoolCard, SANDBOX_POOL_BIN, WebhookDeliveryView, WebhookPage } from '@paygrid/contracts';
import { DocumentSchemas, pointerSegment, waitFor, WebhookReceiver } from '@paygrid/testing';
import { CARDS, cardMethod, intentBody, useAcquiringE2eSettings } from '../acquiring/support/acquiring-e2e';
import { api, ApiResponse, SANDBOX, tokenFor } from '../support/api-client';
import { BusCapture, CapturedMessage } from '../support/bus-capture';
import { companySubAccount } from '../support/fixtures';
import { cardholderBody } from '../issuing/support/issuing-e2e';
import { E2E_API, e2eKafkaPrefix } from '../support/stack-settings';

/**
 * The references hold on the running stack: every route of the OpenAPI document is called with a valid
 * request and its real answer must match the schema the document declares for that status (refusals
 * included, in the spec's envelopes); and every command, reply and event the calls put on the bus must
 * match the AsyncAPI document.
 */
interface OpenApi {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
}
interface AsyncApi {
  channels: Record<string, { address: string }>;
  components: { messages: Record<string, unknown> };
}

const EXPECTED_COMMAND_TYPES = [
  'accounts.credentials.verify',
  'accounts.list',
  'accounts.retrieve',
  'accounts.get_additional',
  'accounts.create_sub_account',
  'acquiring.payment_intents.create',
  'acquiring.payment_intents.retrieve',
  'acquiring.payment_intents.list',
  'acquiring.payment_intents.update',
  'acquiring.payment_intents.confirm',
  'acquiring.payment_intents.capture',
  'acquiring.payment_intents.cancel',
  'acquiring.payment_attempts.list',
  'acquiring.payment_attempts.retrieve',
  'acquiring.refunds.create',
  'acquiring.refunds.list',
  'acquiring.refunds.retrieve',
  'acquiring.settlements.list',
  'acquiring.hosted.session',
  'acquiring.hosted.confirm',
  'acquiring.hosted.three_ds',
  'webhooks.endpoints.create',
  'webhooks.endpoints.list',
  'webhooks.endpoints.retrieve',
  'webhooks.endpoints.update',
  'webhooks.endpoints.delete',
  'webhooks.endpoints.rotate_secret',
  'webhooks.endpoints.enable',
  'webhooks.endpoints.replay',
  'webhooks.deliveries.list',
  'webhooks.deliveries.retrieve',
  'webhooks.deliveries.retry',
  'webhooks.events.list_attempts',
  'payouts.bank_accounts.create',
  'payouts.bank_accounts.update',
  'payouts.bank_accounts.list',
  'payouts.bank_accounts.retrieve',
  'payouts.payouts.create',
  'payouts.payouts.list',
  'payouts.payouts.retrieve',
  'payouts.balances.list',
  'payouts.balances.retrieve',
];

const EXPECTED_EVENTS = [
  'account.created',
  'acquiring.payment_intent.created',
  'acquiring.payment_intent.updated',
  'acquiring.payment_intent.requires_capture',
  'acquiring.payment_intent.requires_action',
  'acquiring.payment_intent.cancelled',
  'acquiring.payment_intent.succeeded',
  'acquiring.payment_attempt.created',
  'acquiring.refund.created',
  'acquiring.payout.created',
];

describe('API and bus references against the running stack', () => {
  let openApi: OpenApi;
  let asyncApi: AsyncApi;
  let openApiSchemas: DocumentSchemas;
  let asyncApiSchemas: DocumentSchemas;
  let capture: BusCapture;
  let token: string;
  const answered = new Set<string>();

  beforeAll(async () => {
    await useAcquiringE2eSettings();
    openApi = (await (await fetch(`${E2E_API}/openapi.json`)).json()) as OpenApi;
    asyncApi = (await (await fetch(`${E2E_API}/asyncapi.json`)).json()) as AsyncApi;
    openApiSchemas = new DocumentSchemas(openApi);
    asyncApiSchemas = new DocumentSchemas(asyncApi);
    capture = await BusCapture.start(topicsOf(asyncApi));
    token = await tokenFor(SANDBOX.master);
  }, 120_000);

  afterAll(async () => {
    await capture?.stop();
  });

  /** The documented channels as this e2e stack's topics (their address is `{stack}.<logical name>`). */
  const topicsOf = (document: AsyncApi) =>
    Object.values(document.channels).map((channel) => channel.address.replace('{stack}', e2eKafkaPrefix()));

  /** Calls a documented route and holds its answer to the schema declared for the status it got. */
  async function call<T = Record<string, unknown>>(
    method: 'GET' | 'POST',
    template: string,
    options: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown; headers?: Record<string, string>; rawBody?: string; anonymous?: boolean } = {},
    expectedStatus = 200,
  ): Promise<ApiResponse<T>> {
    const path = Object.entries(options.params ?? {}).reduce((current, [name, value]) => current.replace(`{${name}}`, encodeURIComponent(value)), template);
    const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
    const response = await api<T>(method, `${path}${query}`, {
      token: options.anonymous ? undefined : token,
      body: options.body,
      rawBody: options.rawBody,
      headers: { 'x-client-id': SANDBOX.master.clientId, ...options.headers },
    });
    const where = `${method} ${template}`;
    expect({ where, status: response.status, body: response.status === expectedStatus ? 'as expected' : response.text }).toEqual({
      where,
      status: expectedStatus,
      body: 'as expected',
    });
    const declared = openApi.paths[template]?.[method.toLowerCase()]?.responses[String(response.status)];
    expect({ where, status: response.status, declared: declared !== undefined }).toEqual({ where, status: response.status, declared: true });
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0].trim();
    expect({ where, mediaType, declared: Object.keys(declared.content ?? {}).includes(mediaType) }).toEqual({ where, mediaType, declared: true });
    const pointer = `#/paths/${pointerSegment(template)}/${method.toLowerCase()}/responses/${response.status}/content/${pointerSegment(mediaType)}/schema`;
    const value = mediaType === 'application/json' ? response.body : response.text;
    expect({ where, problems: openApiSchemas.problems(pointer, value) }).toEqual({ where, problems: [] });
    answered.add(`${method} ${template}:${response.status}`);
    return response;
  }

  it('answers every documented route as its schema says', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const issued = await call('POST', '/v1/connect/token', {
        anonymous: true,
        headers: { 'x-client-id': SANDBOX.master.clientId, 'x-api-key': SANDBOX.master.apiKey },
      });
      expect(issued.body.auth_token).toEqual(expect.any(String));
      await call('POST', '/v1/diagnostics/echo', { headers: { 'x-on-behalf-of': SANDBOX.sub1.accountId } });

      await call('GET', '/v1/accounts', { query: { page_size: '10' } });
      await call('GET', '/v1/accounts/{id}', { params: { id: SANDBOX.sub1.accountId } });
      await call('GET', '/v1/accounts/get_additional', { query: { country: 'SG', business_code: 'ACQUIRING' } });
      await call('POST', '/v1/accounts/create_accounts', { body: companySubAccount(`Reference ${randomUUID().slice(0, 8)}`) });

      const endpoint = await call<CreatedWebhookEndpointView>('POST', '/v1/webhooks/endpoints', {
        body: { url: receiver.url('/reference'), event_names: ['acquiring.payment_intent.*'], description: 'reference' },
      });
      const endpointId = { id: endpoint.body.endpoint_id };
      await call('GET', '/v1/webhooks/endpoints');
      await call('GET', '/v1/webhooks/endpoints/{id}', { params: endpointId });
      await call('POST', '/v1/webhooks/endpoints/{id}', { params: endpointId, body: { description: 'reference, renamed' } });
      await call('POST', '/v1/webhooks/endpoints/{id}/rotate_secret', { params: endpointId, body: { overlap_seconds: 60 } });
      await call('POST', '/v1/webhooks/endpoints/{id}/enable', { params: endpointId });

      // A card authorised for later capture, then captured and refunded.
      const authorised = await call<PaymentIntentView>('POST', '/v2/payment_intents/create', {
        body: intentBody({ payment_method: cardMethod(CARDS.visa, { auto_capture: false }) }),
      });
      const authorisedId = { id: authorised.body.payment_intent_id };
      await call('GET', '/v2/payment_intents', { query: { page_size: '10' } });
      await call('GET', '/v2/payment_intents/{id}', { params: authorisedId });
      await call('POST', '/v2/payment_intents/{id}/capture', { params: authorisedId, body: {} });
      const refund = await call<{ payment_refund_id: string }>('POST', '/v2/payment/refunds', {
        body: { payment_intent_id: authorised.body.payment_intent_id, amount: '5.00', reason: 'reference' },
      });
      await call('GET', '/v2/payment/refunds', { query: { payment_intent_id: authorised.body.payment_intent_id } });
      await call('GET', '/v2/payment/refunds/{id}', { params: { id: refund.body.payment_refund_id } });
      await call('GET', '/v2/payment/payment_attempts', { query: { payment_intent_id: authorised.body.payment_intent_id } });
      const attemptId = authorised.body.latest_payment_attempt?.attempt_id ?? '';
      await call('GET', '/v2/payment/payment_attempts/{id}', { params: { id: attemptId } });
      await call('GET', '/v2/payment/settlements', { query: { page_size: '10' } });

      // An intent without a card: updated, then confirmed; another one cancelled.
      const open = await call<PaymentIntentView>('POST', '/v2/payment_intents/create', { body: intentBody() });
      await call('POST', '/v2/payment_intents/{id}', { params: { id: open.body.payment_intent_id }, body: { description: 'Updated order' } });
      await call('POST', '/v2/payment_intents/{id}/confirm', {
        params: { id: open.body.payment_intent_id },
        body: { payment_method: cardMethod(CARDS.mastercard) },
      });
      const abandoned = await call<PaymentIntentView>('POST', '/v2/payment_intents/create', { body: intentBody() });
      await call('POST', '/v2/payment_intents/{id}/cancel', {
        params: { id: abandoned.body.payment_intent_id },
        body: { cancellation_reason: 'abandoned' },
      });

      // The hosted pages of an intent without a card: checkout with a 3-D Secure card, then the challenge.
      const hosted = await call<PaymentIntentView>('POST', '/v2/payment_intents/create', { body: intentBody() });
      const secret = { client_secret: hosted.body.client_secret ?? '' };
      await call('GET', '/hosted/checkout', { query: secret, anonymous: true });
      const challenged = await call<{ intent_status: string }>('POST', '/hosted/checkout/pay', {
        anonymous: true,
        body: { ...secret, card: { card_number: CARDS.threeDs, expiry_month: '12', expiry_year: '2035', cvc: '123' } },
      });
      expect(challenged.body.intent_status).toBe('REQUIRES_CUSTOMER_ACTION');
      await call('GET', '/hosted/three_ds', { query: secret, anonymous: true });
      await call('POST', '/hosted/three_ds', { anonymous: true, body: { ...secret, outcome: 'approve' } });

      // Payouts: the master's seeded USD settlement account, a new one in SGD, and a payout once the
      // payment captured above has settled into the available balance.
      const bankAccounts = await call<{ data: { id: string; currency: string }[] }>('GET', '/v2/payment/bankaccount');
      const seededUsd = bankAccounts.body.data.find((account) => account.currency === 'USD');
      expect(seededUsd).toBeDefined();
      const bankAccountId = { id: seededUsd?.id ?? '' };
      await call('GET', '/v2/payment/bankaccount/{id}', { params: bankAccountId });
      await call('POST', '/v2/payment/bankaccount/{id}', {
        params: bankAccountId,
        body: {
          account_number: '000123456789',
          bank_name: 'Paygrid Sandbox Bank',
          swift_code: 'PGSBUS33',
          bank_country_code: 'US',
          bank_address: '1 Sandbox Way, New York, NY 10001',
          bank_code_type: 'aba',
          bank_code_value: '021000021',
        },
      });
      await call('POST', '/v2/payment/bankaccount/create', {
        body: { currency: 'SGD', account_number: '0123456789', bank_name: 'Reference Bank', swift_code: 'DBSSSGSG', bank_country_code: 'SG', bank_address: '12 Marina Boulevard' },
      });
      await waitFor(
        async () => {
          const balance = await api<{ available_balance: string }>('GET', '/v2/payment/balances/USD', { token });
          return Number(balance.body.available_balance) >= 1;
        },
        { timeoutMs: 30_000, intervalMs: 200, what: 'the captured payment to settle into the available balance' },
      );
      const payout = await call<{ payout_id: string }>('POST', '/v2/payment/payout/create', {
        body: { payout_currency: 'USD', payout_amount: '1.00', statement_descriptor: 'REFERENCE' },
      });
      const payoutId = { id: payout.body.payout_id };
      await call('GET', '/v2/payment/payout', { query: { payout_status: 'INITIATED' } });
      await call('GET', '/v2/payment/payouts', { query: { page_size: '10' } });
      await call('GET', '/v2/payment/payout/{id}', { params: payoutId });
      await call('GET', '/v2/payment/payouts/{id}', { params: payoutId });
      await call('GET', '/v2/payment/balances');
      await call('GET', '/v2/payment/balances/{currency}', { params: { currency: 'USD' } });

      // Deliveries of the events above to the endpoint.
      const delivered = await waitFor(
        async () => {
          const page = await api<WebhookPage<WebhookDeliveryView>>('GET', `/v1/webhooks/deliveries?endpoint_id=${endpoint.body.endpoint_id}&delivery_status=SUCCEEDED`, { token });
          return page.body.data?.[0];
        },
        { timeoutMs: 30_000, intervalMs: 200, what: 'a delivery to the reference endpoint' },
      );
      await call('GET', '/v1/webhooks/deliveries', { query: { endpoint_id: endpoint.body.endpoint_id } });
      await call('GET', '/v1/webhooks/deliveries/{id}', { params: { id: delivered.delivery_id } });
      await call('POST', '/v1/webhooks/deliveries/{id}/retry', { params: { id: delivered.delivery_id } });
      await call('GET', '/v1/webhooks/events/{id}/attempts', { params: { id: delivered.event_id } });
      await call('POST', '/v1/webhooks/endpoints/{id}/replay', { params: endpointId, body: { since: new Date(Date.now() - 60_000).toISOString() } });
      await call('POST', '/v1/webhooks/endpoints/{id}/delete', { params: endpointId });
      await walkIssuing();
      await walkIssuingFunds();
    } finally {
      await receiver.close();
    }

    const documented = Object.entries(openApi.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}:200`));
    expect(documented.filter((route) => !answered.has(route))).toEqual([]);
  });

  /** Every issuing route (docs/issuing.md), with the waits its asynchronous parts need. */
  async function walkIssuing(): Promise<void> {
    const products = await call<{ data: { product_id: string; card_bin: string; product_status: string }[] }>('GET', '/v1/issuing/products', {
      query: { page_size: '10' },
    });
    const product = products.body.data.find((item) => item.card_bin === SANDBOX_POOL_BIN && item.product_status === 'ENABLED');
    const holder = await call<{ cardholder_id: string }>('POST', '/v1/issuing/cardholders', { body: cardholderBody() });
    const holderId = { id: holder.body.cardholder_id };
    await waitFor(async () => (await api<{ cardholder_status: string }>('GET', `/v1/issuing/cardholders/${holderId.id}`, { token })).body.cardholder_status === 'SUCCESS', {
      what: 'the reference cardholder\'s KYC',
      timeoutMs: 30_000,
    });
    await call('GET', '/v1/issuing/cardholders', { query: { cardholder_status: 'SUCCESS' } });
    await call('GET', '/v1/issuing/cardholders/{id}', { params: holderId });
    await call('POST', '/v1/issuing/cardholders/{id}', { params: holderId, body: { delivery_address: { country: 'SG', state: 'SG', city: 'Singapore', postal_code: '018989', line1: '1 Sandbox Way' } } });

    const card = await call<{ card_id: string }>('POST', '/v1/issuing/cards', {
      body: { card_currency: 'USD', cardholder_id: holderId.id, card_product_id: product?.product_id, metadata: { reference: 'walk' } },
    });
    const cardId = { id: card.body.card_id };
    await waitFor(async () => (await api<{ card_status: string }>('GET', `/v1/issuing/cards/${cardId.id}`, { token })).body.card_status === 'ACTIVE', {
      what: 'the reference card to be issued',
      timeoutMs: 30_000,
    });
    await call('GET', '/v1/issuing/cards', { query: { cardholder_id: holderId.id } });
    await call('GET', '/v1/issuing/cards/{id}', { params: cardId });
    await call('POST', '/v1/issuing/cards/{id}', { params: cardId, body: { card_limit: 1000 } });
    const recharge = await call<{ card_order_id: string }>('POST', '/v1/issuing/cards/{id}/recharge', { params: cardId, body: { amount: 30 } });
    await call('GET', '/v1/issuing/card_orders/{id}', { params: { id: recharge.body.card_order_id } });
    await waitFor(async () => (await api<{ order_status: string }>('GET', `/v1/issuing/card_orders/${recharge.body.card_order_id}`, { token })).body.order_status === 'SUCCESS', {
      what: 'the reference recharge',
    });
    await call('POST', '/v1/issuing/cards/{id}/withdraw', { params: cardId, body: { amount: 10 } });
    await walkCardTransactions(cardId.id);
    await call('POST', '/v1/issuing/cards/{id}/elevate_limit', { params: cardId, body: { per_transaction_limit: 500, duration_in_days: 3 } });
    await call('POST', '/v1/issuing/cards/{id}/network_protection/enrol', { params: cardId });
    await call('POST', '/v1/issuing/cards/{id}/network_protection/remove', { params: cardId });
    await call('GET', '/v1/issuing/cards/{id}/secure', { params: cardId });
    await call('POST', '/v1/issuing/cards/{id}/token', { params: cardId, body: {} });
    await call('POST', '/v1/issuing/cards/{id}/status', { params: cardId, body: { card_status: 'FROZEN', update_reason: 'reference' } });
    const arts = await call<{ data: { card_art_id: string }[] }>('GET', '/v1/issuing/card_arts');
    await call('POST', '/v1/issuing/card_arts/{id}/default', { params: { id: arts.body.data[0].card_art_id } });
    await call('POST', '/v1/issuing/cards/bulk_create', { body: { card_product_id: product?.product_id, card_currency: 'USD', quantity: 2 } });

    // A pool card (the master's last: the issuing suites take theirs from the first), assigned, activated, its PIN reset.
    const pool = sandboxPoolCard(1, 9);
    const assigned = await call<{ card_id: string }>('POST', '/v1/issuing/cards/assign', {
      body: { cardholder_id: holderId.id, card_number: pool.card_number, card_currency: 'USD', card_mode: 'SHARE' },
    });
    await call('POST', '/v1/issuing/cards/assign', { body: { cardholder_id: holderId.id, card_number: '4111111111111111', card_currency: 'USD', card_mode: 'SHARE' } }, 400);
    await call('POST', '/v1/issuing/cards/activate', { body: { card_id: assigned.body.card_id, activation_code: pool.activation_code, pin: '2580' } });
    await call('POST', '/v1/issuing/cards/{id}/reset_pin', { params: { id: assigned.body.card_id }, body: { pin: '0852' } });

    const spare = await call<{ cardholder_id: string }>('POST', '/v1/issuing/cardholders', { body: cardholderBody() });
    await call('POST', '/v1/issuing/cardholders/{id}/delete', { params: { id: spare.body.cardholder_id } });
  }

  /** The card transaction routes (docs/issuing.md, "Card transactions") on the walk's card, which holds 20.00 here. */
  async function walkCardTransactions(cardId: string): Promise<void> {
    const authorization = (amount: number) => ({
      card_id: cardId,
      transaction_amount: amount,
      transaction_currency: 'USD',
      merchant_name: 'Reference walk',
      merchant_category_code: '5411',
      transaction_status: 'APPROVED',
    });
    const held = await call<{ transaction_id: string }>('POST', '/v1/simulation/issuing/authorization', { body: authorization(2) });
    await call('POST', '/v1/simulation/issuing/reversal', { body: { transaction_id: held.body.transaction_id } });
    const spent = await call<{ transaction_id: string }>('POST', '/v1/simulation/issuing/authorization', { body: authorization(3) });
    await waitFor(
      async () => ((await api<{ posted_time?: string }>('GET', `/v1/issuing/transactions/${spent.body.transaction_id}`, { token })).body.posted_time ? true : undefined),
      { what: 'the reference authorization to clear', timeoutMs: 30_000, intervalMs: 250 },
    );
    await call('GET', '/v1/issuing/transactions/{id}', { params: { id: spent.body.transaction_id } });
    await call('GET', '/v1/issuing/transactions', { query: { card_id: cardId } });
    await call('POST', '/v1/simulation/issuing/refund', { body: { transaction_id: spent.body.transaction_id, amount: 1 } });
    await call('POST', '/v1/simulation/issuing/chargeback', { body: { transaction_id: spent.body.transaction_id, amount: 1, chargeback_type: 'CREDIT' } });
    // The master's decision endpoint exists only for these three calls: other suites authorize on the same account.
    await call('POST', '/v1/issuing/authorization_decision/endpoint', { body: { url: 'https://decisions.example/authorize' } });
    await call('GET', '/v1/issuing/authorization_decision/endpoint');
    await call('POST', '/v1/issuing/authorization_decision/endpoint/delete', { body: {} });
  }

  /** The issuing money routes (docs/issuing.md, "Balances, transfers and reports"). */
  async function walkIssuingFunds(): Promise<void> {
    const started = new Date(Date.now() - 60_000).toISOString();
    await call('GET', '/v1/issuing/balances', { query: { page_size: '10' } });
    await call('POST', '/v1/issuing/balances', { body: { currency: 'USD' } });
    await call('POST', '/v1/issuing/balances', { body: { currency: 'EUR' } }, 400);
    await call('POST', '/v1/simulation/deposit', { body: { amount: 25, currency: 'USD', sender_swift_code: 'DBSSSGSG' } });
    await call('GET', '/v1/issuing/balances/transactions', { query: { transaction_type: 'DEPOSIT', currency: 'USD' } });
    const transfer = await call<{ transfer_id: string }>('POST', '/v1/issuing/transfers', {
      body: { source_account_id: SANDBOX.master.accountId, destination_account_id: SANDBOX.sub1.accountId, currency: 'USD', amount: 5 },
    });
    await call('GET', '/v1/issuing/transfers/{id}', { params: { id: transfer.body.transfer_id } });
    await call('GET', '/v1/issuing/transfers', { query: { transfer_status: 'PENDING' } });
    const report = await call<{ report_id: string }>('POST', '/v1/issuing/reports', {
      body: { report_type: 'SETTLEMENT', start_time: started, end_time: new Date(Date.now() + 60_000).toISOString() },
    });
    await waitFor(async () => ((await api('GET', `/v1/issuing/reports/${report.body.report_id}`, { token })).status === 200 ? true : undefined), {
      what: 'the reference report',
    });
    await call('GET', '/v1/issuing/reports/{id}', { params: { id: report.body.report_id } });
  }

  it('keeps a reference UI beside the documents', async () => {
    const ui = await fetch(`${E2E_API}/docs`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger-ui');
    const init = await fetch(`${E2E_API}/docs/swagger-ui-init.js`);
    expect(await init.text()).toContain('"openapi": "3.1.0"');
  });

  it('refuses in the envelopes the document declares', async () => {
    // Envelope A: an id that exists nowhere, and a request without a token.
    const missing = await call('GET', '/v2/payment_intents/{id}', { params: { id: 'pi_01JAAAAAAAAAAAAAAAAAAAAAAA' } }, 400);
    expect(missing.body).toMatchObject({ type: 'invalid_request_error', code: 'resource_not_found' });
    const anonymous = await call('GET', '/v1/accounts', { anonymous: true }, 401);
    expect(anonymous.body).toMatchObject({ type: 'unauthorized_error' });
    // Envelope B: a body that is not JSON.
    const broken = await call('POST', '/v2/payment/refunds', { rawBody: '{"amount":' }, 400);
    expect(broken.body).toEqual({ code: 400, message: 'Params JSON error' });
  });

  it('puts on the bus only commands, replies and events the AsyncAPI document describes', async () => {
    const messages = await waitFor(
      () => {
        const current = capture.messages();
        const types = new Set(current.map((message) => (message.value as { type?: string } | null)?.type));
        const events = new Set(current.map((message) => (message.value as { event_name?: string } | null)?.event_name));
        const complete = EXPECTED_COMMAND_TYPES.every((type) => types.has(type)) && EXPECTED_EVENTS.every((name) => events.has(name));
        return complete ? current : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, what: 'the commands and events of the route walk on the bus' },
    );

    const commandTopics = new Set(topicsOf(asyncApi).filter((topic) => topic.endsWith('.commands')));
    const commandTypeOf = new Map<string, string>();
    const problems: string[] = [];
    const check = (message: CapturedMessage, id: string) => {
      if (!(id in asyncApi.components.messages)) return problems.push(`${message.topic}: ${id} is not in the document`);
      const at = `#/components/messages/${pointerSegment(id)}`;
      for (const problem of asyncApiSchemas.problems(`${at}/payload`, message.value)) problems.push(`${id} payload: ${problem}`);
      for (const problem of asyncApiSchemas.problems(`${at}/headers`, message.headers)) problems.push(`${id} headers: ${problem}`);
    };
    let replies = 0;
    for (const message of messages.filter((candidate) => commandTopics.has(candidate.topic))) {
      const type = (message.value as { type: string }).type;
      commandTypeOf.set(message.headers.kafka_correlationId, type);
      check(message, type);
    }
    for (const message of messages) {
      if (commandTopics.has(message.topic)) continue;
      if (message.topic.endsWith('.reply')) {
        const type = commandTypeOf.get(message.headers.kafka_correlationId);
        if (type === undefined) continue; // the reply to a command sent before the capture began
        replies += 1;
        check(message, `${type}.reply`);
      } else {
        check(message, (message.value as { event_name: string }).event_name);
      }
    }
    expect(problems).toEqual([]);
    expect(replies).toBeGreaterThanOrEqual(EXPECTED_COMMAND_TYPES.length);
  });
});
