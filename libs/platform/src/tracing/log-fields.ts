import { context, isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * The trace of the work in progress, for the logger's mixin: with `trace_id` on every line, one id
 * finds a payment's log lines in every service and its trace in the collector. Empty outside a span.
 */
export interface TraceLogFields {
  trace_id?: string;
  span_id?: string;
}

const NONE: TraceLogFields = Object.freeze({});

export function traceLogFields(): TraceLogFields {
  const span = trace.getSpan(context.active());
  if (!span) return NONE;
  const spanContext = span.spanContext();
  if (!isSpanContextValid(spanContext)) return NONE;
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}
