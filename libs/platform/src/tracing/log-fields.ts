import { context, isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * The trace of the work in progress, for the logger's mixin: with `trace_id` on every line, one id
 * finds a payment's log lines in every service and its trace in the collector. Empty outside a span.
 */
export interface TraceLogFields {
  trace_id?: string;
  span_id?: string;
}

/** A new object on every call: pino merges each line's own fields into what the mixin returns. */
export function traceLogFields(): TraceLogFields {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const spanContext = span.spanContext();
  if (!isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}
