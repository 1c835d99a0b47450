import {
  Context,
  ROOT_CONTEXT,
  TextMapGetter,
  TextMapSetter,
  context as activeContext,
} from '@opentelemetry/api';
import { TRACE_PARENT_HEADER, TRACE_STATE_HEADER, W3CTraceContextPropagator } from '@opentelemetry/core';
import { headerText } from '../kafka/kafka-factory';

/**
 * W3C trace context (`traceparent`, `tracestate`) in and out of the header maps the platform carries:
 * Kafka message headers (values arrive as Buffers), outbox rows (JSON), job data, HTTP headers.
 *
 * The propagator is this module's own rather than the global one: propagation works the same whether
 * or not an app installed tracing, and nothing else (a library registering its own propagator) can
 * change what goes on the wire.
 */
export const TRACE_HEADERS = [TRACE_PARENT_HEADER, TRACE_STATE_HEADER] as const;

const w3c = new W3CTraceContextPropagator();

/** Reads header values as Kafka hands them over (Buffers) or as stored (strings). */
const headerGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => headerText(carrier, key),
};

const headerSetter: TextMapSetter<Record<string, string>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/**
 * The trace headers of `from` (the active context by default): `traceparent`, and `tracestate` when
 * there is one. Empty when no valid span is active, so a caller can always spread the result.
 */
export function traceHeaders(from: Context = activeContext.active()): Record<string, string> {
  const headers: Record<string, string> = {};
  w3c.inject(from, headers, headerSetter);
  return headers;
}

/** Adds the trace headers of `from` to `headers` (in place) and returns it. */
export function injectTraceHeaders<H extends Record<string, unknown>>(headers: H, from?: Context): H {
  return Object.assign(headers, traceHeaders(from));
}

/**
 * The remote parent carried by `headers`, as a context to start a span in. Starts from the root, not
 * the active context: a consumer callback runs in whatever context its consumer was started from,
 * which is never the message's parent. A missing or malformed `traceparent` gives the root context,
 * so the span opens a new trace.
 */
export function extractTraceContext(headers: Record<string, unknown> | undefined | null): Context {
  if (!headers) return ROOT_CONTEXT;
  return w3c.extract(ROOT_CONTEXT, headers, headerGetter);
}
