import {
  Attributes,
  context,
  INVALID_SPAN_CONTEXT,
  Link,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { CommandEnvelope, CommandReply, PING_COMMAND } from '@paygrid/contracts';
import { headerText } from '../kafka/kafka-factory';
import { extractTraceContext, injectTraceHeaders, traceHeaders } from './propagation';
import { inSpan, tracer } from './tracer';

/**
 * Spans of the bus: a command's `send <type>` at the sender (its context goes out in the command's
 * headers), `process <type>` in the service (child of the sender's span; its context goes back in the
 * reply's headers), and `process <topic>` where events are consumed (child of the outbox publication
 * that put the event on Kafka, or, for a batch, linked to each message's). Pings (health checks,
 * readiness waits) are not traced: they would only bury real traffic.
 */
const KAFKA: Attributes = { 'messaging.system': 'kafka' };
const UNTRACED = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Opens the sender's span and writes its context into the outgoing message's headers. */
export function startCommandSend(
  topic: string,
  command: CommandEnvelope,
  headers: Record<string, string>,
): Span {
  if (command.type === PING_COMMAND) return UNTRACED;
  const span = tracer().startSpan(`send ${command.type}`, {
    kind: SpanKind.PRODUCER,
    attributes: { ...KAFKA, ...commandAttributes(topic, command), 'messaging.operation.type': 'send' },
  });
  injectTraceHeaders(headers, trace.setSpan(context.active(), span));
  return span;
}

/** Ends the sender's span with the bus's outcome (ok, refused, timeout, failed). */
export function endCommandSend(span: Span, outcome: string): void {
  span.setAttribute('paygrid.command.outcome', outcome);
  if (outcome === 'timeout' || outcome === 'failed')
    span.setStatus({ code: SpanStatusCode.ERROR, message: `no reply (${outcome})` });
  span.end();
}

/** A reply as Nest's Kafka server sends it when the handler returns a message: value plus headers. */
export interface TracedReply {
  value: CommandReply;
  headers: Record<string, string>;
}

/**
 * Runs a service's handling of one command inside `process <type>`, child of the sender's span, and
 * returns the reply with that span's context in its headers.
 */
export async function traceCommandHandling(
  topic: string,
  headers: Record<string, unknown> | undefined,
  raw: unknown,
  handle: () => Promise<CommandReply>,
): Promise<TracedReply> {
  const command = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<CommandEnvelope>;
  const type = typeof command.type === 'string' ? command.type : 'unknown';
  if (type === PING_COMMAND) return { value: await handle(), headers: {} };
  const spec = {
    kind: SpanKind.CONSUMER,
    attributes: { ...KAFKA, ...commandAttributes(topic, command), 'messaging.operation.type': 'process' },
  };
  return inSpan(`process ${type}`, spec, extractTraceContext(headers), async (span) => {
    const reply = await handle();
    span.setAttribute('paygrid.command.outcome', reply.ok ? 'ok' : 'refused');
    if (!reply.ok) {
      span.setAttribute('paygrid.error.code', String(reply.error.body.code));
      if (reply.error.status >= 500)
        span.setStatus({ code: SpanStatusCode.ERROR, message: String(reply.error.body.code) });
    }
    return { value: reply, headers: traceHeaders(trace.setSpan(ROOT_CONTEXT, span)) };
  });
}

/** Runs the handling of one consumed event inside `process <topic>`, child of its publication. */
export function traceEventHandling<T>(
  topic: string,
  headers: Record<string, unknown> | undefined,
  work: () => Promise<T>,
): Promise<T> {
  const eventId = headerText(headers, 'event-id');
  const attributes: Attributes = {
    ...KAFKA,
    'messaging.destination.name': topic,
    'messaging.operation.type': 'process',
  };
  if (eventId !== undefined) attributes['messaging.message.id'] = eventId;
  return inSpan(
    `process ${topic}`,
    { kind: SpanKind.CONSUMER, attributes },
    extractTraceContext(headers),
    () => work(),
  );
}

/**
 * Runs the handling of a batch of consumed messages inside one `process <topic>` span: the child of
 * its message's trace when the batch holds one message (the usual case below saturation), else a new
 * trace linked to every message's (how tracing backends show batch processing).
 */
export function traceEventBatch<T>(
  topic: string,
  messages: { headers?: Record<string, unknown> }[],
  work: () => Promise<T>,
): Promise<T> {
  const attributes: Attributes = {
    ...KAFKA,
    'messaging.destination.name': topic,
    'messaging.operation.type': 'process',
    'messaging.batch.message_count': messages.length,
  };
  if (messages.length === 1) {
    return inSpan(
      `process ${topic}`,
      { kind: SpanKind.CONSUMER, attributes },
      extractTraceContext(messages[0].headers),
      () => work(),
    );
  }
  const links: Link[] = [];
  for (const message of messages) {
    const linked = trace.getSpanContext(extractTraceContext(message.headers));
    if (linked) links.push({ context: linked });
  }
  return inSpan(`process ${topic}`, { kind: SpanKind.CONSUMER, attributes, links }, ROOT_CONTEXT, () =>
    work(),
  );
}

function commandAttributes(topic: string, command: Partial<CommandEnvelope>): Attributes {
  const attributes: Attributes = {
    'messaging.destination.name': topic,
    'paygrid.command.type': String(command.type),
  };
  if (typeof command.command_id === 'string') attributes['paygrid.command.id'] = command.command_id;
  if (command.actor && typeof command.actor.account_id === 'string')
    attributes['paygrid.account_id'] = command.actor.account_id;
  return attributes;
}
