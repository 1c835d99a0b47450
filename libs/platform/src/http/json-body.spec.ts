import Fastify, { FastifyInstance } from 'fastify';
import { installJsonBodyParser } from './http-errors';
import { jsonShapeProblem } from './json-shape';
import { ApiError } from '../errors/api-error';

/** The body parser every app uses: encodings and shapes a hostile client sends are refused with a 400. */
function server(): FastifyInstance {
  const fastify = Fastify();
  installJsonBodyParser(fastify);
  fastify.setErrorHandler((error, _request, reply) => {
    const apiError = error instanceof ApiError ? error : undefined;
    void reply.status(apiError?.status ?? 500).send(apiError?.body ?? { type: 'api_error' });
  });
  fastify.post('/echo', async (request) => ({ received: request.body ?? null }));
  return fastify;
}

const post = (fastify: FastifyInstance, payload: string | Buffer) =>
  fastify.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload });

describe('jsonShapeProblem', () => {
  it('accepts bodies within the limits, whatever their strings contain', () => {
    expect(jsonShapeProblem('{"a":{"b":[1,2,{"c":"}}]]{{:::"}]}}')).toBeUndefined();
    expect(jsonShapeProblem('{"quote":"\\"{{{{","n":1}', { maxDepth: 1, maxKeys: 2 })).toBeUndefined();
  });

  it('names the depth limit', () => {
    expect(jsonShapeProblem('[[[1]]]', { maxDepth: 2, maxKeys: 10 })).toBe(
      'the request body nests deeper than 2 levels',
    );
  });

  it('names the member limit', () => {
    expect(jsonShapeProblem('{"a":1,"b":{"c":2}}', { maxDepth: 5, maxKeys: 2 })).toBe(
      'the request body has more than 2 object members',
    );
  });
});

describe('the JSON body parser', () => {
  let fastify: FastifyInstance;
  beforeAll(() => {
    fastify = server();
  });
  afterAll(() => fastify.close());

  it('parses an ordinary body and treats an empty one as none', async () => {
    expect((await post(fastify, '{"amount":"1.00","nested":{"ok":true}}')).json()).toEqual({
      received: { amount: '1.00', nested: { ok: true } },
    });
    expect((await post(fastify, '')).json()).toEqual({ received: null });
  });

  it('refuses a 50,000-deep body with a 400 naming the limit, not a stack overflow', async () => {
    const response = await post(fastify, `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      type: 'invalid_request_error',
      code: 'invalid_request_error',
      message: 'the request body nests deeper than 32 levels',
    });
  });

  it('refuses a body with too many members', async () => {
    const members = Array.from({ length: 2_001 }, (_, index) => `"k${index}":1`).join(',');
    const response = await post(fastify, `{${members}}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: 'the request body has more than 2000 object members' });
  });

  it('refuses a body that is not UTF-8 with a 400 saying so', async () => {
    const response = await post(
      fastify,
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      type: 'invalid_request_error',
      code: 'invalid_request_error',
      message: 'the request body is not valid UTF-8',
    });
  });

  it('still answers Params JSON error for a body that does not parse', async () => {
    const response = await post(fastify, '{"a":');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 400, message: 'Params JSON error' });
  });

  it('reads multi-byte characters by bytes, so Content-Length always matches', async () => {
    expect((await post(fastify, '{"name":"Zoë 💳"}')).json()).toEqual({ received: { name: 'Zoë 💳' } });
  });
});
