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
 * intake in a span of that trace, the intake's direct first attempt and the retry's BullMQ job continue it,
 * and each webhook POST is a CLIENT span of its attempt, recorded with its status. The merchant receives no
 * trace header.
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

it('continues the publisher trace through the intake, the first attempt, the retry job and each POST', async () => {
  const accountId = randomUUID();
  const path = `/hooks/traced-${randomUUID().slice(0, 8)}`;
  // The first attempt fails, so the second is a BullMQ job.
  let answered = 0;
  receiver.respond(path, () => (answered++ === 0 ? { status: 500 } : { status: 200 }));
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

  const received = await waitFor(() => receiver.received(path).length === 2 && receiver.received(path), {
    timeoutMs: 30_000,
    what: 'the failed webhook and its retry',
  });
  for (const request of received) expect(request.headers).not.toHaveProperty('traceparent');
  const delivered = (attempt: number) =>
    inTrace(traceId).find(
      (span) => span.name === 'deliver webhook' && span.attributes['paygrid.delivery.attempt'] === attempt,
    );
  const second = await waitFor(() => delivered(2), { what: 'the second attempt span' });
  const posts = await waitFor(
    () => {
      const found = inTrace(traceId).filter((span) => span.name === 'POST');
      return found.length === 2 && found;
    },
    { what: 'both POST spans' },
  );

  // Alone on this stack's topic, the event is a chunk of one: the intake span is the message's child.
  const intake = inTrace(traceId).find((span) => span.name === `process ${topic}`);
  expect(intake?.parentSpanContext?.spanId).toBe(publishSpanId);
  expect(
    inTrace(traceId).some(
      (span) =>
        span.name === 'transaction' && span.parentSpanContext?.spanId === intake?.spanContext().spanId,
    ),
  ).toBe(true);

  // The intake sends the first attempt itself: the attempt is the intake's child.
  const first = delivered(1);
  expect(first?.parentSpanContext?.spanId).toBe(intake?.spanContext().spanId);
  expect(first?.attributes).toMatchObject({ 'paygrid.delivery.outcome': 'rescheduled' });

  // The retry is a durable job enqueued by the first attempt: its run continues the trace.
  const job = inTrace(traceId).find((span) => span.name.startsWith('job '));
  expect(job?.kind).toBe(SpanKind.CONSUMER);
  expect(job?.parentSpanContext?.spanId).toBe(first?.spanContext().spanId);
  expect(second?.parentSpanContext?.spanId).toBe(job?.spanContext().spanId);
  expect(second?.attributes).toMatchObject({ 'paygrid.delivery.outcome': 'succeeded' });

  const postOf = (attempt: typeof first) =>
    posts.find((span) => span.parentSpanContext?.spanId === attempt?.spanContext().spanId);
  for (const [attempt, status] of [
    [first, 500],
    [second, 200],
  ] as const) {
    expect(postOf(attempt)?.kind).toBe(SpanKind.CLIENT);
    expect(postOf(attempt)?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'http.response.status_code': status,
    });
  }
});

function inTrace(traceId: string): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
}
