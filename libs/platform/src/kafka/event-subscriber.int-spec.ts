import { randomUUID } from 'node:crypto';
import { Kafka, Producer } from 'kafkajs';
import pino from 'pino';
import { DomainEvent } from '@paygrid/contracts';
import { aDomainEvent, EventWriter, testBrokers, TestStack, waitFor } from '@paygrid/testing';
import { createKafka, createProducer } from './kafka-factory';
import { EventBatchSubscriber } from './event-subscriber';
import { Metrics } from '../metrics/metrics';

/**
 * EventBatchSubscriber on the real broker (this file's own stack of topics): events reach the handler in
 * offset order, in chunks no larger than asked; a malformed message is skipped; a failed chunk is given
 * again rather than skipped, and the events after it wait for it.
 */
const logger = pino({ level: 'silent' });

describe('EventBatchSubscriber', () => {
  let stack: TestStack;
  let kafka: Kafka;
  let writer: EventWriter;
  let producer: Producer;

  beforeAll(async () => {
    stack = await TestStack.create('event-batches');
    kafka = createKafka('event-batch-test', testBrokers(), logger);
    writer = await stack.eventWriter();
    producer = createProducer(kafka);
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await stack?.close();
  });

  it('hands over chunks in offset order, skips a malformed message and retries a failed chunk', async () => {
    const key = `src_${randomUUID()}`;
    const events = Array.from({ length: 7 }, () => aDomainEvent({ account_id: 'acct_batch', source_id: key }));
    const chunks: string[][] = [];
    let failuresLeft = 1;
    const subscriber = new EventBatchSubscriber(
      kafka,
      { names: stack.names, group: `batch-it-${randomUUID()}`, families: ['payouts'] },
      async (batch: DomainEvent[]) => {
        chunks.push(batch.map((event) => event.event_id));
        if (batch.some((event) => event.event_id === events[4].event_id) && failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('database briefly down');
        }
        return batch.map(() => 'applied' as const);
      },
      logger,
      new Metrics('event-batch-test'),
      { chunkSize: 3 },
    );
    // One partition (same key) so the order is the offsets'.
    await writer.publish(events.slice(0, 3), 'payouts');
    await producer.send({ topic: stack.names.eventTopic('payouts'), messages: [{ key, value: 'not an event' }] });
    await writer.publish(events.slice(3), 'payouts');
    await subscriber.start();

    const ids = events.map((event) => event.event_id);
    const handled = () => chunks.slice(chunks.findIndex((chunk) => chunk.includes(ids[4]), 0) + 1).flat();
    await waitFor(() => failuresLeft === 0 && handled().includes(ids[6]), { what: 'every event after the retry' });
    await subscriber.stop();

    expect(chunks.every((chunk) => chunk.length >= 1 && chunk.length <= 3)).toBe(true);
    // Every event reached the handler in order; the failed chunk came again from its first event on.
    const firstPass = chunks.flat().slice(0, chunks.flat().indexOf(ids[4]) + 1);
    expect(firstPass.filter((id) => ids.includes(id))).toEqual(ids.slice(0, firstPass.length));
    const afterFailure = handled();
    expect(afterFailure.slice(afterFailure.indexOf(ids[4]))).toEqual(ids.slice(4));
  });

  it('with a fetch gather, still hands over an event the gather never fills (the broker answers at the wait)', async () => {
    const event = aDomainEvent({ account_id: 'acct_gather', source_id: `src_${randomUUID()}` });
    const handled: string[][] = [];
    const subscriber = new EventBatchSubscriber(
      kafka,
      { names: stack.names, group: `gather-it-${randomUUID()}`, families: ['payouts'] },
      async (batch: DomainEvent[]) => {
        handled.push(batch.map((each) => each.event_id));
        return batch.map(() => 'applied' as const);
      },
      logger,
      new Metrics('event-gather-test'),
      // 16 MiB is never reached by this file's few events: only the wait can answer the fetch. From the
      // beginning, so the event cannot be published before the group's offsets are set and then missed.
      { chunkSize: 10, fetchGather: { minBytes: 16 * 1024 * 1024, maxWaitTimeInMs: 200 } },
    );
    await subscriber.start();
    await writer.publish([event], 'payouts');
    await waitFor(() => handled.flat().includes(event.event_id), { what: 'the lone event' });
    await subscriber.stop();

    expect(handled.flat().filter((id) => id === event.event_id)).toHaveLength(1);
  });
});
