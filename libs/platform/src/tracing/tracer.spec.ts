import { ROOT_CONTEXT, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { loadConfig } from '../config/config';
import { traceLogFields } from './log-fields';
import { extractTraceContext, traceHeaders } from './propagation';
import { inSpan, installTracing, tracer, uninstallTracing } from './tracer';
import { tracingConfig } from './tracing-config';

/**
 * What installTracing does with and without a collector. Without one, spans must cost next to nothing
 * (nothing recorded) yet ids must still flow, so log lines and downstream services share a trace id.
 */
const REMOTE_TRACE = '0af7651916cd43dd8448eb211c80319c';
const sampledParent = () => extractTraceContext({ traceparent: `00-${REMOTE_TRACE}-b7ad6b7169203331-01` });

afterEach(() => uninstallTracing());

describe('tracing without a collector', () => {
  beforeEach(() => installTracing('unit', loadConfig(tracingConfig(), {})));

  it('records nothing, even under a sampled caller', () => {
    expect(tracer().startSpan('root').isRecording()).toBe(false);
    expect(tracer().startSpan('child', {}, sampledParent()).isRecording()).toBe(false);
  });

  it('still carries the caller trace id onward and into log lines', async () => {
    const { headers, fields } = await inSpan(
      'process',
      { kind: SpanKind.INTERNAL },
      sampledParent(),
      async () => ({
        headers: traceHeaders(),
        fields: traceLogFields(),
      }),
    );
    expect(headers.traceparent).toMatch(new RegExp(`^00-${REMOTE_TRACE}-[0-9a-f]{16}-00$`));
    expect(fields.trace_id).toBe(REMOTE_TRACE);
  });

  it('mints a trace id at the edge, so a request logs one', async () => {
    const fields = await inSpan('GET /x', { kind: SpanKind.SERVER }, ROOT_CONTEXT, async () =>
      traceLogFields(),
    );
    expect(fields.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(fields.trace_id).not.toBe('0'.repeat(32));
  });

  it('keeps the first installation when an app boots a second time in the process', () => {
    installTracing('unit', {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_TRACES_SAMPLER_ARG: 1,
    });
    expect(tracer().startSpan('root').isRecording()).toBe(false);
  });
});

describe('tracing with a collector', () => {
  const withRatio = (ratio: string) =>
    installTracing(
      'unit',
      loadConfig(tracingConfig(), {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
        OTEL_TRACES_SAMPLER_ARG: ratio,
      }),
    );

  it('records new traces at the configured ratio and follows the caller decision', () => {
    withRatio('1');
    expect(tracer().startSpan('root').isRecording()).toBe(true);
    const unsampled = extractTraceContext({ traceparent: `00-${REMOTE_TRACE}-b7ad6b7169203331-00` });
    expect(tracer().startSpan('child', {}, unsampled).isRecording()).toBe(false);
  });

  it('records no new trace at ratio 0, but still a sampled caller (parent-based)', () => {
    withRatio('0');
    expect(tracer().startSpan('root').isRecording()).toBe(false);
    const child = tracer().startSpan('child', {}, sampledParent());
    expect(child.isRecording()).toBe(true);
    expect(child.spanContext().traceFlags).toBe(TraceFlags.SAMPLED);
    expect(trace.getSpanContext(sampledParent())?.traceId).toBe(child.spanContext().traceId);
  });
});

describe('tracing configuration', () => {
  it('treats an empty endpoint as "not exporting" and defaults the ratio to 1', () => {
    expect(loadConfig(tracingConfig(), {})).toEqual({
      OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
      OTEL_TRACES_SAMPLER_ARG: 1,
    });
    expect(
      loadConfig(tracingConfig(), { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.internal:4318/' }),
    ).toMatchObject({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.internal:4318/',
    });
    expect(loadConfig(tracingConfig(), { OTEL_TRACES_SAMPLER_ARG: '0.25' }).OTEL_TRACES_SAMPLER_ARG).toBe(
      0.25,
    );
  });

  it('refuses an endpoint that is not an http(s) URL and a ratio outside 0..1, naming them', () => {
    for (const env of [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' },
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector' },
      { OTEL_TRACES_SAMPLER_ARG: '1.5' },
      { OTEL_TRACES_SAMPLER_ARG: '-0.1' },
      { OTEL_TRACES_SAMPLER_ARG: 'half' },
    ]) {
      expect(() => loadConfig(tracingConfig(), env)).toThrow(Object.keys(env)[0]);
    }
  });
});
