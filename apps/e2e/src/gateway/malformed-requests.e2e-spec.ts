import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { api, isEnvelope, SANDBOX, tokenFor } from '../support/api-client';
import { queryE2eDatabase } from '../support/databases';
import { E2E_API } from '../support/stack-settings';

/**
 * Bad input never produces a 5xx, and every refusal is one of the spec's envelopes (section 7). The
 * routes come from the gateway's own OpenAPI document, so every documented route is covered; the
 * requests are generated with a fixed seed (reproducible): wrong types, missing and extra fields,
 * oversized values, broken JSON, bad content types and bad headers.
 */
interface Route {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
}

interface Attempt {
  route: Route;
  /** Path parameters without characters a router treats specially (an encoded '/', say). */
  plainPath: boolean;
  description: string;
  response: { status: number; body: unknown; text: string };
}

const REQUESTS_PER_ROUTE = 150;
const SEED = 20261122;

const hostileStrings = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', '-1', '0', '1e309', 'NaN', 'null', 'true', '../../etc/passwd', '%00', '%', '\u0000', '💳', '<script>'),
  fc.string({ minLength: 2000, maxLength: 5000 }),
  fc.integer().map(String),
  fc.double().map(String),
);

const jsonValue = fc.jsonValue({ maxDepth: 4 });

const bodyArbitrary = fc.oneof(
  { weight: 3, arbitrary: fc.dictionary(fc.string({ maxLength: 20 }), jsonValue, { maxKeys: 8 }).map((value) => ({ kind: 'object', body: JSON.stringify(value) })) },
  { weight: 2, arbitrary: jsonValue.map((value) => ({ kind: 'json value', body: JSON.stringify(value) })) },
  { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', '[]]', '{"a":1,}', 'undefined', "{'a':1}", '\u0000\u0001').map((body) => ({ kind: 'broken JSON', body })) },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 200 }).map((body) => ({ kind: 'random text', body })) },
  {
    weight: 1,
    arbitrary: fc.constant({ kind: 'oversized', body: JSON.stringify({ nickname: 'x'.repeat(200_000), entity_type: 'COMPANY' }) }),
  },
);

const headerArbitrary = fc.record({
  contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/xml', ''),
  idempotencyKey: fc.oneof(fc.constant(undefined), fc.uuid(), hostileStrings),
  onBehalfOf: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.oneof(fc.uuid(), hostileStrings) }),
  auth: fc.constantFrom('valid', 'valid', 'valid', 'bare', 'garbage', 'missing'),
});

describe('malformed requests', () => {
  let routes: Route[];
  let token: string;
  let storedBefore: StoredMoneyRows;

  beforeAll(async () => {
    token = await tokenFor(SANDBOX.master);
    storedBefore = await storedMoneyRows();
    const document = (await (await fetch(`${E2E_API}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        pathParams: (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      })),
    );
  });

  it('covers every documented route', () => {
    expect(routes.length).toBeGreaterThanOrEqual(5);
    expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual(
      expect.arrayContaining([
        'POST /v1/connect/token',
        'GET /v1/accounts',
        'POST /v1/accounts/create_accounts',
        'POST /v2/payment/payout/create',
        'GET /v2/payment/payout/{id}',
        'GET /v2/payment/balances/{currency}',
        'POST /v2/payment/bankaccount/create',
        'POST /v2/payment/bankaccount/{id}',
      ]),
    );
    // Issuing (issue 10): every route family, the ones with sealed secrets and the sensitive ones included.
    expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual(
      expect.arrayContaining([
        'GET /v1/issuing/products',
        'POST /v1/issuing/cardholders',
        'POST /v1/issuing/cardholders/{id}',
        'POST /v1/issuing/cards',
        'GET /v1/issuing/cards',
        'POST /v1/issuing/cards/assign',
        'POST /v1/issuing/cards/activate',
        'GET /v1/issuing/cards/{id}/secure',
        'POST /v1/issuing/cards/{id}/token',
        'POST /v1/issuing/cards/{id}/recharge',
        'POST /v1/issuing/cards/{id}/withdraw',
        'GET /v1/issuing/card_orders/{id}',
      ]),
    );
  });

  it('answers at least 1,000 generated malformed requests with no 5xx and every refusal in an envelope', async () => {
    const attempts: Attempt[] = [];
    let seed = SEED;
    for (const route of routes) {
      const cases = fc.sample(
        fc.record({
          body: bodyArbitrary,
          headers: headerArbitrary,
          pathValues: fc.array(fc.oneof(fc.uuid(), hostileStrings), { minLength: route.pathParams.length, maxLength: route.pathParams.length }),
          query: fc.dictionary(fc.constantFrom(...route.queryParams, 'unknown_param', 'page_size'), hostileStrings, { maxKeys: 4 }),
        }),
        { numRuns: REQUESTS_PER_ROUTE, seed: seed++ },
      );
      for (let start = 0; start < cases.length; start += 25) {
        const batch = cases.slice(start, start + 25).map(async (generated) => {
          let path = route.path;
          route.pathParams.forEach((name, index) => {
            path = path.replace(`{${name}}`, encodeURIComponent(generated.pathValues[index] || 'x'));
          });
          const query = new URLSearchParams(generated.query).toString();
          const headers: Record<string, string> = {};
          const { contentType, idempotencyKey, onBehalfOf, auth } = generated.headers;
          if (contentType) headers['content-type'] = contentType;
          if (idempotencyKey !== undefined) headers['x-idempotency-key'] = sanitizeHeader(idempotencyKey);
          if (onBehalfOf !== undefined) headers['x-on-behalf-of'] = sanitizeHeader(onBehalfOf);
          if (auth === 'valid') headers['x-auth-token'] = `Bearer ${token}`;
          if (auth === 'bare') headers['x-auth-token'] = token;
          if (auth === 'garbage') headers['x-auth-token'] = `Bearer ${randomUUID()}`;
          if (route.path === '/v1/connect/token') {
            headers['x-client-id'] = sanitizeHeader(generated.pathValues[0] ?? SANDBOX.master.clientId);
            headers['x-api-key'] = 'sk_' + randomUUID();
          }
          const response = await api(route.method, `${path}${query ? `?${query}` : ''}`, {
            rawBody: route.method === 'GET' ? undefined : generated.body.body,
            headers,
            idempotencyKey: null,
          });
          const plainPath = generated.pathValues.every((value) => /^[A-Za-z0-9_-]+$/.test(value));
          attempts.push({ route, plainPath, description: `${generated.body.kind}, ${JSON.stringify(generated.headers).slice(0, 200)}`, response });
        });
        await Promise.all(batch);
      }
    }

    expect(attempts.length).toBeGreaterThanOrEqual(1000);
    const serverErrors = attempts.filter((attempt) => attempt.response.status >= 500);
    expect(serverErrors.map(summary)).toEqual([]);
    const unenveloped = attempts.filter((attempt) => attempt.response.status >= 400 && !isEnvelope(attempt.response.body));
    expect(unenveloped.map(summary)).toEqual([]);
    const unknownRoutes = attempts.filter(
      (attempt) => attempt.plainPath && attempt.response.status === 404 && attempt.response.text.includes('no route'),
    );
    expect(unknownRoutes.map(summary)).toEqual([]);
  });

  it('stored no payout and no bank account from any generated request', async () => {
    expect(await storedMoneyRows()).toEqual(storedBefore);
  });

  it('refuses a 50,000-deep body with a 400 naming the limit (no stack overflow, nothing to retry)', async () => {
    const response = await api('POST', '/v1/accounts/create_accounts', {
      token,
      rawBody: `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`,
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      type: 'invalid_request_error',
      code: 'invalid_request_error',
      message: 'the request body nests deeper than 32 levels',
    });
  });

  it('refuses a body with more object members than any request has', async () => {
    const members = Array.from({ length: 5_000 }, (_, index) => `"k${index}":1`).join(',');
    const response = await api('POST', '/v1/accounts/create_accounts', { token, rawBody: `{${members}}` });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ type: 'invalid_request_error', message: 'the request body has more than 2000 object members' });
  });

  it('says so when the body is not UTF-8', async () => {
    const response = await fetch(`${E2E_API}/v1/accounts/create_accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': `Bearer ${token}`, 'x-idempotency-key': randomUUID() },
      body: Buffer.concat([Buffer.from('{"nickname":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: 'invalid_request_error',
      code: 'invalid_request_error',
      message: 'the request body is not valid UTF-8',
    });
  });
});

interface StoredMoneyRows {
  payouts: number;
  bankAccounts: number;
}

/** What a refused payout or bank-account request must never leave behind (decisions §4: nothing stored). */
async function storedMoneyRows(): Promise<StoredMoneyRows> {
  const [row] = await queryE2eDatabase<StoredMoneyRows>(
    'paygrid_payouts',
    'SELECT (SELECT count(*)::int FROM payouts) AS "payouts", (SELECT count(*)::int FROM bank_accounts) AS "bankAccounts"',
  );
  return row;
}

function summary(attempt: Attempt): string {
  return `${attempt.route.method} ${attempt.route.path} (${attempt.description}) -> ${attempt.response.status} ${attempt.response.text.slice(0, 200)}`;
}

/** fetch refuses header values with control or non-Latin-1 characters; keep the rest hostile. */
function sanitizeHeader(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '?').slice(0, 4000);
}
