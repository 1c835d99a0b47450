import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { extractTraceContext, injectTraceHeaders, traceHeaders } from './propagation';

/**
 * W3C trace context through the header maps the platform carries, as Kafka hands them back (Buffers,
 * arrays of Buffers) and as the outbox stores them (strings). No tracer is installed: propagation must
 * not depend on one.
 */
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';

function contextWith(flags: TraceFlags, traceState?: string) {
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: TRACE_ID,
    spanId: SPAN_ID,
    traceFlags: flags,
    traceState: traceState ? new TraceState(traceState) : undefined,
  });
}

function asKafkaHeaders(headers: Record<string, string>): Record<string, Buffer> {
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key, Buffer.from(value, 'utf8')]));
}

describe('trace context propagation', () => {
  it('writes traceparent and tracestate, and reads them back from Kafka Buffers', () => {
    const headers = traceHeaders(contextWith(TraceFlags.SAMPLED, 'paygrid=t61rcWkgMzE,vendor=opaque'));
    expect(headers).toEqual({
      traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`,
      tracestate: 'paygrid=t61rcWkgMzE,vendor=opaque',
    });

    const extracted = trace.getSpanContext(extractTraceContext(asKafkaHeaders(headers)));
    expect(extracted).toMatchObject({
      traceId: TRACE_ID,
      spanId: SPAN_ID,
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
    expect(extracted?.traceState?.serialize()).toBe('paygrid=t61rcWkgMzE,vendor=opaque');
  });

  it('keeps an unsampled decision unsampled across the hop', () => {
    const headers = traceHeaders(contextWith(TraceFlags.NONE));
    expect(headers.traceparent).toBe(`00-${TRACE_ID}-${SPAN_ID}-00`);
    expect(trace.getSpanContext(extractTraceContext(headers))?.traceFlags).toBe(TraceFlags.NONE);
  });

  it('reads a header that arrives as an array of Buffers (kafkajs repeated headers)', () => {
    const headers = { traceparent: [Buffer.from(`00-${TRACE_ID}-${SPAN_ID}-01`)] };
    expect(trace.getSpanContext(extractTraceContext(headers))?.traceId).toBe(TRACE_ID);
  });

  it('adds to existing headers without dropping them (the correlation id travels beside)', () => {
    const headers = injectTraceHeaders({ 'x-request-id': 'req-1' }, contextWith(TraceFlags.SAMPLED));
    expect(headers).toEqual({ 'x-request-id': 'req-1', traceparent: `00-${TRACE_ID}-${SPAN_ID}-01` });
  });

  it('writes nothing outside a span, so a caller can always spread the result', () => {
    expect(traceHeaders(ROOT_CONTEXT)).toEqual({});
    expect(traceHeaders()).toEqual({});
  });

  it('starts a new trace (root context) from missing, malformed or all-zero trace headers', () => {
    for (const headers of [
      undefined,
      {},
      { traceparent: 'garbage' },
      { traceparent: `00-${'0'.repeat(32)}-${SPAN_ID}-01` },
      { traceparent: Buffer.from(`00-${TRACE_ID}-${'0'.repeat(16)}-01`) },
    ]) {
      expect(trace.getSpanContext(extractTraceContext(headers))).toBeUndefined();
    }
  });
});
