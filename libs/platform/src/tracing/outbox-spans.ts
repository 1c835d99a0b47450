import { Span, SpanKind, trace } from '@opentelemetry/api';
import { extractTraceContext, traceHeaders } from './propagation';
import { markFailed, tracer } from './tracer';

/**
 * The relay's side of an event's trace. The writing transaction stored its trace context on the
 * outbox row (outbox-writer.ts); here each row with one gets a `publish <topic>` span, child of that
 * context and starting when the row was written, so the trace shows how long the event waited in the
 * outbox; the message goes out with the publish span's context, and its consumer continues from it.
 * Rows without a stored context (written outside any trace, or before tracing existed) go out as they are.
 */
export interface PublishableRow {
  event_id: string;
  topic: string;
  message_key: string;
  headers: Record<string, string>;
  created_at?: Date;
}

export interface Publication<R> {
  /** The rows with the trace headers to publish. */
  rows: R[];
  /** Ends the spans once Kafka acknowledged the batch. */
  published(): void;
  /** Ends the spans as failed and rethrows. */
  failed(error: unknown): never;
}

/** `topicOf` names the Kafka topic a row goes to (rows store a logical name; see KafkaNames). */
export function tracePublication<R extends PublishableRow>(
  rows: R[],
  topicOf: (row: R) => string = (row) => row.topic,
): Publication<R> {
  const spans: Span[] = [];
  const traced = rows.map((row) => {
    const parent = extractTraceContext(row.headers);
    if (!trace.getSpan(parent)) return row;
    const topic = topicOf(row);
    const span = tracer().startSpan(
      `publish ${topic}`,
      {
        kind: SpanKind.PRODUCER,
        startTime: row.created_at,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.type': 'send',
          'messaging.destination.name': topic,
          'messaging.message.id': row.event_id,
          'messaging.kafka.message.key': row.message_key,
        },
      },
      parent,
    );
    spans.push(span);
    return { ...row, headers: { ...row.headers, ...traceHeaders(trace.setSpan(parent, span)) } };
  });
  return {
    rows: traced,
    published() {
      for (const span of spans) span.end();
    },
    failed(error: unknown): never {
      for (const span of spans) {
        markFailed(span, error);
        span.end();
      }
      throw error;
    },
  };
}
