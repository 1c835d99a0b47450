import { randomBytes, randomUUID } from 'node:crypto';
import { Producer } from 'kafkajs';
import pino from 'pino';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { CreatedWebhookEndpointView, WebhookCommand } from '@paygrid/contracts';
import { createKafka, createProducer, installTracingForTests, uninstallTracing } from '@paygrid/platform';
import { actorOf, aDomainEvent, resultOf, testBrokers, waitFor, WebhookReceiver } from '@paygrid/testing';
import { DispatcherService, startDispatcher } from './test/dispatcher-service';

/**
 * The dispatcher's part of a payment's trace, against the real Kafka, Postgres and Redis (on a test stack
 * of its own): an event published with a `traceparent` (as the outbox relay sends it) is stored by the
 * intake in a span of that trace, the delivery job carries the trace through BullMQ, and the webhook POST
 * is a CLIENT span of the delivery, recorded with its status. The merchant receives no trace header.
 */
const exporter = new InMemorySpanExporter();
let dispatcher: DispatcherService;
let receiver: WebhookReceiver;
let producer: Producer;

beforeAll(async () => {
  installTracingForTests('webhook-dispatcher', [new SimpleSpanProcessor({ exporter })]);
  dispatcher = await startDispatcher();
  receiver = await WebhookReceiver.start();
  producer = createProducer(createKafka('wh-it-trace', testBrokers(), pino({ level: 'silent' })));
  await producer.connect();
}, 180_000);

afterAll(async () => {
  await producer?.disconnect();
  await receiver?.close();
  await dispatcher?.close();
  await uninstallTracing();
});

it('continues the publisher trace through the intake, the delivery job and the webhook POST', async () => {
  const accountId = randomUUID();
  const path = `/hooks/traced-${randomUUID().slice(0, 8)}`;
  resultOf(
    await dispatcher.mutate<CreatedWebhookEndpointView>(
      WebhookCommand.createEndpoint.type,
      { url: receiver.url(path) },
      { actor: actorOf(accountId) },
    ),
  );
  const traceId = randomBytes(16).toString('hex');
  const publishSpanId = randomBytes(8).toString('hex');
  const event = aDomainEvent({ account_id: accountId });
  const topic = dispatcher.stack.names.eventTopic('acquiring');
  await producer.send({
    topic,
    acks: -1,
    messages: [
      {
        key: event.source_id,
        value: JSON.stringify(event),
        headers: { traceparent: `00-${traceId}-${publishSpanId}-01`, 'event-id': event.event_id },
      },
    ],
  });

  const [received] = await waitFor(() => receiver.received(path).length === 1 && receiver.received(path), {
    timeoutMs: 30_000,
    what: 'the webhook',
  });
  expect(received.headers).not.toHaveProperty('traceparent');
  const post = await waitFor(() => inTrace(traceId).find((span) => span.name === 'POST'), {
    what: 'the POST span',
  });

  // Alone on this stack's topic, the event is a chunk of one: the intake span is the message's child.
  const intake = inTrace(traceId).find((span) => span.name === `process ${topic}`);
  expect(intake?.parentSpanContext?.spanId).toBe(publishSpanId);
  expect(
    inTrace(traceId).some(
      (span) =>
        span.name === 'transaction' && span.parentSpanContext?.spanId === intake?.spanContext().spanId,
    ),
  ).toBe(true);

  // The delivery is a durable job: its run continues the intake's trace, and the delivery is its child.
  const job = inTrace(traceId).find((span) => span.name.startsWith('job '));
  expect(job?.kind).toBe(SpanKind.CONSUMER);
  expect(job?.parentSpanContext?.spanId).toBe(intake?.spanContext().spanId);
  const deliver = inTrace(traceId).find((span) => span.name === 'deliver webhook');
  expect(deliver?.parentSpanContext?.spanId).toBe(job?.spanContext().spanId);
  expect(deliver?.attributes).toMatchObject({
    'paygrid.delivery.attempt': 1,
    'paygrid.delivery.outcome': 'succeeded',
  });

  expect(post.kind).toBe(SpanKind.CLIENT);
  expect(post.parentSpanContext?.spanId).toBe(deliver?.spanContext().spanId);
  expect(post.attributes).toMatchObject({
    'http.request.method': 'POST',
    'server.address': '127.0.0.1',
    'http.response.status_code': 200,
  });
});

function inTrace(traceId: string): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
}
