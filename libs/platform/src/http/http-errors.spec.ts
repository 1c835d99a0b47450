import { ArgumentsHost } from '@nestjs/common';
import type { Logger } from 'pino';
import { Errors } from '../errors/api-error';
import { HttpErrorFilter, PreparedAnswer } from './http-errors';

/** What the filter wrote on a stand-in Fastify reply. */
function written(exception: unknown) {
  const reply = { status: 0, headers: {} as Record<string, string>, type: '', body: undefined as unknown };
  const fastifyReply = {
    status: (code: number) => ((reply.status = code), fastifyReply),
    headers: (headers: Record<string, string>) => (Object.assign(reply.headers, headers), fastifyReply),
    type: (type: string) => ((reply.type = type), fastifyReply),
    send: (body: unknown) => ((reply.body = body), fastifyReply),
  };
  const host = {
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => ({ method: 'POST', url: '/api/v1/x' }), getResponse: () => fastifyReply }),
  } as unknown as ArgumentsHost;
  const logged: unknown[] = [];
  new HttpErrorFilter({ error: (...args: unknown[]) => logged.push(args) } as unknown as Logger).catch(exception, host);
  return { reply, logged };
}

describe('HttpErrorFilter', () => {
  it('writes a prepared answer as it is: status, headers and the JSON text unparsed', () => {
    const json = '{"b":1,  "a":"x"}';
    const { reply, logged } = written(new PreparedAnswer(200, json, { 'x-idempotent-replayed': 'true' }));

    expect(reply).toEqual({
      status: 200,
      headers: { 'x-idempotent-replayed': 'true' },
      type: 'application/json; charset=utf-8',
      body: json,
    });
    expect(logged).toEqual([]);
  });

  it('writes an ApiError as its envelope, and an unexpected error as a logged 500 without its message', () => {
    expect(written(Errors.forbidden('no')).reply).toMatchObject({ status: 403, body: { message: 'no' } });

    const { reply, logged } = written(new Error('secret detail'));
    expect(reply.status).toBe(500);
    expect(JSON.stringify(reply.body)).not.toContain('secret detail');
    expect(logged).toHaveLength(1);
  });
});
