import http from 'node:http';
import Fastify, { FastifyInstance } from 'fastify';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { bindHttpCorrelation } from '../logging/fastify-correlation';
import { bindHttpTracing } from './http-server-spans';
import { installTracingForTests, uninstallTracing } from './tracer';
import { waitFor } from '@paygrid/testing';

/**
 * HTTP server spans on a bare Fastify: one span per request named by route, active in the handler even
 * after the body was read from the socket (a real request on loopback: injected requests do not cross
 * the socket's async context), never continuing a caller's traceparent.
 */
const exporter = new InMemorySpanExporter();
let fastify: FastifyInstance;
const seenInHandler: (string | undefined)[] = [];

beforeAll(async () => {
  installTracingForTests('unit', [new SimpleSpanProcessor({ exporter })]);
  fastify = Fastify();
  bindHttpCorrelation(fastify);
  bindHttpTracing(fastify);
  fastify.get('/health/live', async () => ({ ok: true }));
  fastify.post('/v1/things/:id', async (request) => {
    await new Promise((resolve) => setImmediate(resolve));
    seenInHandler.push(trace.getActiveSpan()?.spanContext().spanId);
    return { id: (request.params as { id: string }).id };
  });
  fastify.get('/v1/broken', async () => {
    throw new Error('boom');
  });
  await fastify.listen({ port: 0, host: '127.0.0.1' });
});

afterEach(() => {
  exporter.reset();
  seenInHandler.length = 0;
});

afterAll(async () => {
  await fastify.close();
  await uninstallTracing();
});

describe('HTTP server spans', () => {
  it('opens a SERVER span per request, active in the handler after the body was parsed', async () => {
    const address = fastify.addresses()[0];
    const status = await postInTwoPackets(address.port, '/v1/things/t_1?expand=all', { amount: 100 });
    expect(status).toBe(200);
    await waitFor(() => exporter.getFinishedSpans().length === 1, { what: 'the request span' });
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('POST /v1/things/:id');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toEqual({
      'http.request.method': 'POST',
      'url.path': '/v1/things/t_1',
      'http.route': '/v1/things/:id',
      'paygrid.correlation_id': 'req-42',
      'http.response.status_code': 200,
    });
    expect(seenInHandler).toEqual([span.spanContext().spanId]);
  });

  it('starts a new trace whatever traceparent the caller sends', async () => {
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    await fastify.inject({
      method: 'POST',
      url: '/v1/things/t_2',
      headers: { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` },
      payload: {},
    });
    const [span] = exporter.getFinishedSpans();
    expect(span.spanContext().traceId).not.toBe(callerTrace);
    expect(span.parentSpanContext).toBeUndefined();
  });

  it('marks a 5xx answer as an error', async () => {
    const response = await fastify.inject({ method: 'GET', url: '/v1/broken' });
    expect(response.statusCode).toBe(500);
    const [span] = exporter.getFinishedSpans();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['http.response.status_code']).toBe(500);
  });

  it('leaves probes untraced', async () => {
    expect((await fastify.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

/** Headers first, the body on a later tick: the body is read in the socket's own async context. */
function postInTwoPackets(port: number, path: string, body: object): Promise<number> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          'x-request-id': 'req-42',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.flushHeaders();
    setTimeout(() => request.end(text), 20);
  });
}
