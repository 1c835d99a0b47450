import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { InMemorySpanExporter, ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { CommandEnvelope, PING_COMMAND } from '@paygrid/contracts';
import { Writable } from 'node:stream';
import { createLogger } from '../logging/logger';
import { runWithCorrelation } from '../logging/correlation';
import {
  endCommandSend,
  startCommandSend,
  traceCommandHandling,
  traceEventBatch,
  traceEventHandling,
} from './messaging-spans';
import { tracePublication } from './outbox-spans';
import { extractTraceContext, traceHeaders } from './propagation';
import { jobTraceContext, traceJob } from './job-spans';
import { traceHttpCall } from './http-client-spans';
import { inSpan, installTracingForTests, uninstallTracing } from './tracer';

/**
 * The spans the platform opens, recorded by an in-memory exporter: who is whose parent across a
 * Kafka hop (headers turned into Buffers as kafkajs delivers them), what each span says, and that
 * log lines name the trace they were written in.
 */
const exporter = new InMemorySpanExporter();
const TOPIC = 'paygrid.payouts.commands';

beforeAll(() => installTracingForTests('unit', [new SimpleSpanProcessor({ exporter })]));
afterEach(() => exporter.reset());
afterAll(() => uninstallTracing());

function asKafkaHeaders(headers: Record<string, string>): Record<string, Buffer> {
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key, Buffer.from(value)]));
}

function command(type = 'payouts.create'): CommandEnvelope {
  return {
    type,
    command_id: 'cmd-1',
    actor: {
      account_id: 'acct-1',
      master_account_id: 'acct-1',
      caller_account_id: 'acct-1',
      client_id: 'c',
      permissions: [],
    },
    payload: {},
    sent_at: new Date().toISOString(),
  };
}

function spanNamed(name: string): ReadableSpan {
  const found = exporter.getFinishedSpans().find((span) => span.name === name);
  if (!found)
    throw new Error(
      `no span ${name} among ${exporter
        .getFinishedSpans()
        .map((span) => span.name)
        .join(', ')}`,
    );
  return found;
}

describe('command spans', () => {
  it('makes the service span a child of the sender span, and puts its own context on the reply', async () => {
    const headers: Record<string, string> = { 'x-request-id': 'req-1' };
    const send = startCommandSend(TOPIC, command(), headers);
    let activeInHandler: string | undefined;
    const reply = await traceCommandHandling(TOPIC, asKafkaHeaders(headers), command(), async () => {
      activeInHandler = trace.getActiveSpan()?.spanContext().spanId;
      return { ok: true, result: {} };
    });
    endCommandSend(send, 'ok');

    const sent = spanNamed('send payouts.create');
    const processed = spanNamed('process payouts.create');
    expect(headers['x-request-id']).toBe('req-1');
    expect(headers.traceparent).toBe(`00-${sent.spanContext().traceId}-${sent.spanContext().spanId}-01`);
    expect(sent.kind).toBe(SpanKind.PRODUCER);
    expect(processed.kind).toBe(SpanKind.CONSUMER);
    expect(processed.spanContext().traceId).toBe(sent.spanContext().traceId);
    expect(processed.parentSpanContext?.spanId).toBe(sent.spanContext().spanId);
    expect(activeInHandler).toBe(processed.spanContext().spanId);
    expect(reply.value).toEqual({ ok: true, result: {} });
    expect(reply.headers.traceparent).toBe(
      `00-${processed.spanContext().traceId}-${processed.spanContext().spanId}-01`,
    );
    expect(processed.attributes).toMatchObject({
      'messaging.system': 'kafka',
      'messaging.destination.name': TOPIC,
      'paygrid.command.type': 'payouts.create',
      'paygrid.command.id': 'cmd-1',
      'paygrid.account_id': 'acct-1',
      'paygrid.command.outcome': 'ok',
    });
    expect(sent.attributes['paygrid.command.outcome']).toBe('ok');
  });

  it('marks internal failures as errors, and domain refusals only as refused', async () => {
    const refusal = (status: number) => async () =>
      ({
        ok: false,
        error: { status, body: { code: status === 500 ? 'api_error' : 'invalid_amount', message: 'm' } },
      }) as const;
    await traceCommandHandling(TOPIC, {}, command('payouts.refused'), refusal(400));
    await traceCommandHandling(TOPIC, {}, command('payouts.broken'), refusal(500));
    expect(spanNamed('process payouts.refused').status.code).toBe(SpanStatusCode.UNSET);
    expect(spanNamed('process payouts.refused').attributes['paygrid.error.code']).toBe('invalid_amount');
    expect(spanNamed('process payouts.broken').status.code).toBe(SpanStatusCode.ERROR);

    const send = startCommandSend(TOPIC, command('payouts.slow'), {});
    endCommandSend(send, 'timeout');
    expect(spanNamed('send payouts.slow').status.code).toBe(SpanStatusCode.ERROR);
  });

  it('records a thrown error with card-like numbers masked, and rethrows it', async () => {
    const failing = traceCommandHandling(TOPIC, {}, command('payouts.throws'), async () => {
      throw new Error('card 4242 4242 4242 4242 was refused');
    });
    await expect(failing).rejects.toThrow('4242 4242 4242 4242');
    const [event] = spanNamed('process payouts.throws').events;
    expect(event.attributes?.['exception.message']).toBe('card 424242******4242 was refused');
    expect(JSON.stringify(event.attributes)).not.toContain('4242 4242 4242');
  });

  it('does not trace pings', async () => {
    const headers: Record<string, string> = {};
    const send = startCommandSend(TOPIC, command(PING_COMMAND), headers);
    const reply = await traceCommandHandling(TOPIC, {}, command(PING_COMMAND), async () => ({
      ok: true,
      result: {},
    }));
    endCommandSend(send, 'ok');
    expect(headers).toEqual({});
    expect(reply.headers).toEqual({});
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('opens a new trace for a command without trace headers, whatever context the consumer runs in', async () => {
    const unrelated = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      spanId: 'bbbbbbbbbbbbbbbb',
      traceFlags: TraceFlags.SAMPLED,
    });
    await context.with(unrelated, () =>
      traceCommandHandling(TOPIC, {}, command(), async () => ({ ok: true, result: {} })),
    );
    const processed = spanNamed('process payouts.create');
    expect(processed.spanContext().traceId).not.toBe('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    expect(processed.parentSpanContext).toBeUndefined();
  });
});

describe('event spans', () => {
  const created_at = new Date(Date.now() - 250);

  it('publishes from the stored context, starting when the row was written, and the consumer continues it', async () => {
    const stored = await inSpan(
      'process payouts.create',
      { kind: SpanKind.CONSUMER },
      ROOT_CONTEXT,
      async () => ({
        'x-request-id': 'req-2',
        ...traceHeaders(),
      }),
    );
    const writer = spanNamed('process payouts.create');
    const rows = [
      {
        event_id: 'evt-1',
        topic: 'paygrid.payouts.events',
        message_key: 'po_1',
        headers: stored,
        created_at,
      },
      { event_id: 'evt-2', topic: 'paygrid.payouts.events', message_key: 'po_2', headers: {}, created_at },
    ];
    const publication = tracePublication(rows);
    publication.published();

    const published = spanNamed('publish paygrid.payouts.events');
    expect(exporter.getFinishedSpans().filter((span) => span.name.startsWith('publish'))).toHaveLength(1);
    expect(published.parentSpanContext?.spanId).toBe(writer.spanContext().spanId);
    expect(published.spanContext().traceId).toBe(writer.spanContext().traceId);
    expect(published.startTime).toEqual([
      Math.floor(created_at.getTime() / 1000),
      (created_at.getTime() % 1000) * 1e6,
    ]);
    expect(published.attributes).toMatchObject({
      'messaging.message.id': 'evt-1',
      'messaging.kafka.message.key': 'po_1',
    });
    expect(publication.rows[0].headers).toEqual({
      'x-request-id': 'req-2',
      traceparent: `00-${writer.spanContext().traceId}-${published.spanContext().spanId}-01`,
    });
    expect(publication.rows[1]).toBe(rows[1]);

    await traceEventHandling(
      'paygrid.payouts.events',
      asKafkaHeaders({ ...publication.rows[0].headers, 'event-id': 'evt-1' }),
      async () => undefined,
    );
    const consumed = spanNamed('process paygrid.payouts.events');
    expect(consumed.parentSpanContext?.spanId).toBe(published.spanContext().spanId);
    expect(consumed.attributes['messaging.message.id']).toBe('evt-1');
  });

  it('ends publish spans as failed when Kafka refused the batch, and rethrows', () => {
    const headers = { traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` };
    const publication = tracePublication([{ event_id: 'e', topic: 't', message_key: 'k', headers }]);
    expect(() => publication.failed(new Error('broker down'))).toThrow('broker down');
    expect(spanNamed('publish t').status).toMatchObject({
      code: SpanStatusCode.ERROR,
      message: 'broker down',
    });
  });

  it('makes a one-message batch a child of its message, and a larger batch a new trace linked to each', async () => {
    const parentOf = (digit: string) => ({ traceparent: `00-${digit.repeat(32)}-${'2'.repeat(16)}-01` });
    await traceEventBatch('single', [{ headers: asKafkaHeaders(parentOf('a')) }], async () => undefined);
    await traceEventBatch(
      'many',
      [
        { headers: asKafkaHeaders(parentOf('b')) },
        { headers: {} },
        { headers: asKafkaHeaders(parentOf('c')) },
      ],
      async () => undefined,
    );
    const single = spanNamed('process single');
    expect(single.spanContext().traceId).toBe('a'.repeat(32));
    expect(single.links).toEqual([]);
    const many = spanNamed('process many');
    expect(many.parentSpanContext).toBeUndefined();
    expect(many.attributes['messaging.batch.message_count']).toBe(3);
    expect(many.links.map((link) => link.context.traceId)).toEqual(['b'.repeat(32), 'c'.repeat(32)]);
  });
});

describe('jobs and outgoing HTTP', () => {
  it('runs a job as a child of the trace that enqueued it', async () => {
    expect(jobTraceContext()).toEqual({});
    const stored = await inSpan('intake', { kind: SpanKind.CONSUMER }, ROOT_CONTEXT, async () =>
      jobTraceContext(),
    );
    await traceJob('deliver webhook', stored, { 'paygrid.delivery_id': 'd1' }, async () => undefined);
    expect(spanNamed('deliver webhook').parentSpanContext?.spanId).toBe(
      spanNamed('intake').spanContext().spanId,
    );
  });

  it('records method, host, port and status of a webhook call, never its path or query', async () => {
    const url = 'https://hooks.example.com:8443/services/SECRET-TOKEN?key=SECRET';
    await traceHttpCall('POST', url, async () => ({ statusCode: 204, error: null }));
    const call = spanNamed('POST');
    expect(call.kind).toBe(SpanKind.CLIENT);
    expect(call.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': 'hooks.example.com',
      'server.port': 8443,
      'url.scheme': 'https',
      'http.response.status_code': 204,
    });
    expect(JSON.stringify(call.attributes)).not.toContain('SECRET');
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('marks a failed webhook call (error status or no answer) as an error', async () => {
    await traceHttpCall('POST', 'http://a.example/x', async () => ({ statusCode: 503, error: null }));
    await traceHttpCall('POST', 'http://b.example/x', async () => ({
      statusCode: null,
      error: 'timed out after 5 ms',
    }));
    const [answered, silent] = exporter.getFinishedSpans();
    expect(answered.status.code).toBe(SpanStatusCode.ERROR);
    expect(answered.attributes['error.type']).toBe('503');
    expect(silent.status).toEqual({ code: SpanStatusCode.ERROR, message: 'timed out after 5 ms' });
    expect(silent.attributes['error.type']).toBe('network');
  });
});

describe('log lines', () => {
  it('carry the trace and span id inside a span, beside the correlation id, and neither outside', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')));
        done();
      },
    });
    const logger = createLogger('unit', 'info', sink);
    const inside = await inSpan(
      'work',
      { kind: SpanKind.INTERNAL },
      extractTraceContext({}),
      async (span) => {
        runWithCorrelation('req-3', () => logger.info({ step: 1 }, 'inside'));
        logger.info({ step: 2 }, 'inside, no correlation');
        return span.spanContext();
      },
    );
    logger.info({ step: 3 }, 'outside');
    logger.info({ step: 4 }, 'outside again');
    const ids = { trace_id: inside.traceId, span_id: inside.spanId };
    expect(lines[0]).toMatchObject({ msg: 'inside', step: 1, correlation_id: 'req-3', ...ids });
    expect(lines[1]).toMatchObject({ msg: 'inside, no correlation', step: 2, ...ids });
    expect(lines[2]).toMatchObject({ msg: 'outside', step: 3 });
    expect(lines[2]).not.toHaveProperty('trace_id');
    // Each line's fields stay its own (pino merges them into the object the mixin returns).
    expect(lines[3]).toMatchObject({ msg: 'outside again', step: 4 });
    expect(lines[3]).not.toHaveProperty('step', 3);
  });
});
