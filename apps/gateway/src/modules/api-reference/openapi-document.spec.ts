import 'reflect-metadata';
import SwaggerParser from '@apidevtools/swagger-parser';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { OpenAPIObject } from '@nestjs/swagger';
import { DocumentSchemas, pointerSegment } from '@paygrid/testing';
import { GATEWAY_CONTROLLERS } from '../../gateway.module';
import { EXAMPLES } from './api-examples';
import { buildOpenApiDocument } from './openapi-document';

/**
 * The OpenAPI document as the gateway builds it at boot, from the gateway's real controllers (their
 * collaborators stubbed: building the document calls no route). Validated with an OpenAPI validator,
 * then held to what the reference promises: every route answers a declared schema, refuses in the
 * spec's envelopes, and every example matches the schema it illustrates.
 */
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: object; examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string; oneOf?: { $ref: string }[] }; example?: unknown }> }>;
  security?: Record<string, string[]>[];
};

describe('OpenAPI document', () => {
  let app: NestFastifyApplication;
  let document: OpenAPIObject;
  let operations: { method: string; path: string; operation: Operation }[];

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ controllers: GATEWAY_CONTROLLERS })
      .useMocker(() => ({}))
      .compile();
    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
    app.setGlobalPrefix('api');
    document = buildOpenApiDocument(app, '0.0.0-test');
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({ method, path, operation })),
    );
  });

  afterAll(async () => {
    await app?.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it('lists every route of the API, and no probe or placeholder', () => {
    const routes = operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /v1/connect/token',
        'GET /v1/accounts',
        'GET /v1/accounts/{id}',
        'POST /v1/accounts/create_accounts',
        'POST /v2/payment_intents/create',
        'POST /v2/payment_intents/{id}/capture',
        'GET /v2/payment/settlements',
        'POST /v1/webhooks/endpoints/{id}/rotate_secret',
        'GET /v1/webhooks/events/{id}/attempts',
        'POST /v1/diagnostics/echo',
        'GET /hosted/checkout',
        'POST /hosted/checkout/pay',
        'GET /v1/issuing/products',
        'POST /v1/issuing/cards',
        'GET /v1/issuing/cards/{id}/secure',
        'POST /v1/issuing/cards/{id}/withdraw',
        'POST /v2/payment/payout/create',
        'GET /v2/payment/payout/{id}',
        'GET /v2/payment/payouts',
        'GET /v2/payment/balances/{currency}',
        'POST /v2/payment/bankaccount/create',
        'POST /v2/payment/bankaccount/{id}',
      ]),
    );
    // 35 before issuing and payouts, issuing's 25 (docs/issuing.md), payouts' 11 (docs/payouts.md), issuing funds' 9, card transactions' 9.
    expect(routes.length).toBe(89);
    expect(routes.filter((route) => route.includes('health') || route.includes('*'))).toEqual([]);
    expect(new Set(operations.map(({ operation }) => operation.operationId)).size).toBe(operations.length);
  });

  it('declares the answer of every route and refuses in the two envelopes of spec §7', () => {
    for (const { method, path, operation } of operations) {
      const where = `${method} ${path}`;
      const success = operation.responses['200']?.content;
      expect({ where, success: success && Object.values(success)[0].schema }).toEqual({ where, success: expect.any(Object) });
      const refusals = Object.entries(operation.responses).filter(([status]) => Number(status) >= 400);
      expect({ where, statuses: refusals.map(([status]) => status) }).toEqual({ where, statuses: expect.arrayContaining(['400', '500']) });
      for (const [status, response] of refusals) {
        const schema = response.content?.['application/json']?.schema;
        const refs = schema?.oneOf ? schema.oneOf.map((option) => option.$ref) : [schema?.$ref];
        expect({ where, status, refs }).toEqual({
          where,
          status,
          refs: status === '400' ? ['#/components/schemas/EnvelopeA', '#/components/schemas/EnvelopeB'] : ['#/components/schemas/EnvelopeA'],
        });
      }
    }
    expect(document.components?.schemas).toEqual(expect.objectContaining({ EnvelopeA: expect.any(Object), EnvelopeB: expect.any(Object) }));
  });

  it('declares how each route authenticates', () => {
    const schemes = document.components?.securitySchemes ?? {};
    expect(Object.values(schemes).map((scheme) => (scheme as { name: string }).name).sort()).toEqual(['x-api-key', 'x-auth-token', 'x-client-id']);
    expect(document.security).toEqual([{ authToken: [] }]);
    const security = (method: string, path: string) => operations.find((entry) => entry.method === method && entry.path === path)?.operation.security;
    expect(security('post', '/v1/connect/token')).toEqual([{ clientId: [], apiKey: [] }]);
    expect(security('post', '/v2/payment_intents/create')).toEqual([{ authToken: [], clientId: [] }]);
    expect(security('get', '/v1/accounts')).toBeUndefined();
    expect(security('post', '/hosted/three_ds')).toEqual([{}]);
    const headers = (method: string, path: string) =>
      (operations.find((entry) => entry.method === method && entry.path === path)?.operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'header')
        .map((parameter) => parameter.name)
        .sort();
    expect(headers('post', '/v2/payment/refunds')).toEqual(['x-idempotency-key', 'x-on-behalf-of']);
    expect(headers('get', '/v2/payment/refunds')).toEqual(['x-on-behalf-of']);
  });

  it('derives parameters and bodies from the validation rules', () => {
    const list = operations.find((entry) => entry.method === 'get' && entry.path === '/v2/payment_intents')?.operation;
    expect(list?.parameters?.filter((parameter) => parameter.in === 'query')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'page_size', required: false, schema: expect.objectContaining({ minimum: 10, maximum: 100 }) }),
        expect.objectContaining({ name: 'intent_status', schema: expect.objectContaining({ enum: expect.arrayContaining(['SUCCEEDED']) }) }),
      ]),
    );
    const create = operations.find((entry) => entry.path === '/v2/payment_intents/create')?.operation;
    expect(create?.requestBody?.content['application/json'].schema).toMatchObject({
      required: expect.arrayContaining(['amount', 'currency', 'merchant_order_id']),
      additionalProperties: false,
      properties: { payment_method: { $ref: '#/components/schemas/PaymentMethodInput' } },
    });
  });

  it('shows the sandbox test cards with the acquiring operations', () => {
    const acquiring = document.tags?.find((tag) => tag.name === 'Acquiring');
    for (const card of ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000 0000 0000 3220', '4000 0000 0000 0077', '4100 0000 0000 0019']) {
      expect(acquiring?.description).toContain(card);
    }
  });

  it('shows only examples that match their schemas', () => {
    const schemas = new DocumentSchemas(document);
    const checked: string[] = [];
    for (const { method, path, operation } of operations) {
      const at = `#/paths/${pointerSegment(path)}/${method}`;
      for (const [mediaType, body] of Object.entries(operation.requestBody?.content ?? {})) {
        for (const [name, example] of Object.entries(body.examples ?? {})) {
          checked.push(`${method} ${path} request ${name}`);
          expect({ at, problems: schemas.problems(`${at}/requestBody/content/${pointerSegment(mediaType)}/schema`, example.value) }).toEqual({ at, problems: [] });
        }
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [mediaType, content] of Object.entries(response.content ?? {})) {
          if (content.example === undefined) continue;
          checked.push(`${method} ${path} ${status}`);
          const pointer = `${at}/responses/${status}/content/${pointerSegment(mediaType)}/schema`;
          expect({ pointer, problems: schemas.problems(pointer, content.example) }).toEqual({ pointer, problems: [] });
        }
      }
    }
    expect(checked.length).toBeGreaterThan(60);
    // The check has teeth: an answer missing its fields, or with one too many, is refused.
    const created = `#/paths/${pointerSegment('/v2/payment_intents/create')}/post/responses/200/content/application~1json/schema`;
    expect(schemas.problems(created, {})).not.toEqual([]);
    expect(schemas.problems(created, { ...EXAMPLES.paymentIntent, surprise: true })).not.toEqual([]);
  });
});
