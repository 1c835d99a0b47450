import { randomBytes, randomUUID } from 'node:crypto';
import { Producer } from 'kafkajs';
import pino from 'pino';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { CreatedWebhookEndpointView, EventTopics, WebhookCommands } from '@paygrid/contracts';
import { createKafka, createProducer, installTracingForTests, uninstallTracing } from '@paygrid/platform';
import { TestDatabase, testBrokers, waitFor, WebhookReceiver } from '@paygrid/testing';
import {
  actorOf,
  anEvent,
  createDispatcherDatabase,
  deleteQueueKeys,
  DispatcherApp,
  newTestIdentity,
  resultOf,
  startDispatcherApp,
  WebhookTestBus,
} from './test/dispatcher-app.harness';

/**
 * The dispatcher's part of a payment's trace, against the real Kafka, Postgres and Redis: an event
 * published with a `traceparent` (as the outbox relay sends it) is stored by the intake in a span of that
 * trace, the delivery job carries the trace through BullMQ, and the webhook POST is a CLIENT span of the
 * delivery, recorded with its status. The merchant receives no trace header.
 */
const exporter = new InMemorySpanExporter();
const identity = newTestIdentity();
let database: TestDatabase;
let dispatcher: DispatcherApp;
let receiver: WebhookReceiver;
let producer: Producer;

beforeAll(async () => {
  installTracingForTests('webhook-dispatcher', [new SimpleSpanProcessor({ exporter })]);
  database = await createDispatcherDatabase();
  dispatcher = await startDispatcherApp(database, identity);
  receiver = await WebhookReceiver.start();
  producer = createProducer(createKafka('wh-it-trace', testBrokers(), pino({ level: 'silent' })));
  await producer.connect();
}, 180_000);

afterAll(async () => {
  await producer?.disconnect();
  await dispatcher?.close();
  await receiver?.close();
  await deleteQueueKeys(identity.queuePrefix);
  await database?.drop();
  await uninstallTracing();
});

it('continues the publisher trace through the intake, the delivery job and the webhook POST', async () => {
  const accountId = randomUUID();
  const path = `/hooks/traced-${randomUUID().slice(0, 8)}`;
  resultOf(
    await WebhookTestBus.of(dispatcher).mutate<CreatedWebhookEndpointView>(
      WebhookCommands.createEndpoint,
      { url: receiver.url(path) },
      actorOf(accountId),
    ),
  );
  const traceId = randomBytes(16).toString('hex');
  const publishSpanId = randomBytes(8).toString('hex');
  const event = anEvent({ account_id: accountId });
  await producer.send({
    topic: EventTopics.acquiring,
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

  // A chunk of one message is that message's child (a chunk shared with other traffic on the broker would
  // be a trace of its own linked to it: messaging-spans.spec.ts covers that case).
  const intake = inTrace(traceId).find((span) => span.name === `process ${EventTopics.acquiring}`);
  expect(intake?.parentSpanContext?.spanId).toBe(publishSpanId);
  expect(
    inTrace(traceId).some(
      (span) =>
        span.name === 'transaction' && span.parentSpanContext?.spanId === intake?.spanContext().spanId,
    ),
  ).toBe(true);

  const deliver = inTrace(traceId).find((span) => span.name === 'deliver webhook');
  expect(deliver?.kind).toBe(SpanKind.CONSUMER);
  expect(deliver?.parentSpanContext?.spanId).toBe(intake?.spanContext().spanId);
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
