import { Attributes, Span, SpanKind } from '@opentelemetry/api';
import { extractTraceContext, traceHeaders } from './propagation';
import { inSpan } from './tracer';

/**
 * Background jobs (BullMQ) continue the trace that enqueued them: the enqueuer stores `jobTraceContext()`
 * in the job's data, and the worker runs the job inside `traceJob`, a child of that context. A job
 * enqueued outside any trace (a reconciler's) starts its own.
 */
export type JobTraceContext = Record<string, string>;

/** The active trace context, to store in a job's data. */
export function jobTraceContext(): JobTraceContext {
  return traceHeaders();
}

export function traceJob<T>(
  name: string,
  stored: JobTraceContext | undefined,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return inSpan(name, { kind: SpanKind.CONSUMER, attributes }, extractTraceContext(stored), work);
}
