import pino from 'pino';
import type { Consumer, Kafka, Producer, ProducerBatch } from 'kafkajs';
import { testBrokers, TestStack, waitFor } from '@paygrid/testing';
import { createKafka } from './kafka-factory';
import { coalesceSends } from './coalesced-sends';

/**
 * Coalesced sends on the real broker: what is sent while a request is in flight leaves in one `sendBatch`
 * and arrives once each, in the order sent; a request the broker refuses for its size (two records of 600 KB
 * in one record batch, over its 1 MB `message.max.bytes`) is sent again record by record, and both records
 * arrive. The producer's `sendBatch` is counted, not its produce requests: kafkajs retries a request the
 * broker answers with a retriable error (a leader moving on a loaded machine), which would count twice.
 */
let stack: TestStack;
let kafka: Kafka;
let producer: Producer;
let consumer: Consumer;
let topic: string;
const received: string[] = [];
const recordsPerSendBatch: number[] = [];

/** What arrived of one test's records (each test's values carry its own tag). */
const arrived = (tag: string) => received.filter((value) => value.startsWith(tag));

beforeAll(async () => {
  stack = await TestStack.create('coalesced-sends');
  topic = stack.names.commandTopic('payouts');
  kafka = createKafka('coalesced-sends-test', testBrokers(), pino({ level: 'silent' }));
  producer = coalesceSends(kafka.producer({ allowAutoTopicCreation: false }));
  const sendBatch = producer.sendBatch.bind(producer);
  producer.sendBatch = (batch: ProducerBatch) => {
    recordsPerSendBatch.push(batch.topicMessages?.length ?? 0);
    return sendBatch(batch);
  };
  await producer.connect();
  consumer = kafka.consumer({ groupId: `${stack.prefix}-coalesced-reader`, maxBytes: 10 * 1024 * 1024 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      received.push(message.value?.toString('utf8') ?? '');
    },
  });
  // The topic's leader known and the reader fetching before anything is counted.
  await producer.send({ topic, messages: [{ key: 'warm-up', value: 'warm-up' }] });
  await waitFor(() => arrived('warm-up').length > 0, { timeoutMs: 60_000, what: 'the warm-up record' });
}, 120_000);

afterAll(async () => {
  await consumer?.disconnect();
  await producer?.disconnect();
  await stack?.close();
});

beforeEach(() => {
  recordsPerSendBatch.length = 0;
});

it('sends forty records of one key, sent at once, in two requests, and they arrive once each in order', async () => {
  const values = Array.from({ length: 40 }, (_, index) => `order ${index}`);
  await Promise.all(
    values.map((value) => producer.send({ topic, messages: [{ key: 'one-aggregate', value }] })),
  );
  expect(recordsPerSendBatch).toEqual([1, 39]);

  await waitFor(() => arrived('order').length >= 40, { timeoutMs: 30_000, what: 'the forty records' });
  expect(arrived('order')).toEqual(values);
});

it("sends a batch over the broker's size limit again record by record", async () => {
  const large = `large ${'x'.repeat(600 * 1024)}`;
  const lone = producer.send({ topic, messages: [{ key: 'same', value: 'large lone' }] });
  const together = [
    producer.send({ topic, messages: [{ key: 'same', value: large }] }),
    producer.send({ topic, messages: [{ key: 'same', value: large }] }),
  ];
  await lone;
  await Promise.all(together);
  // The lone record, then the two refused together (sent again alone, outside sendBatch).
  expect(recordsPerSendBatch).toEqual([1, 2]);

  await waitFor(() => arrived('large').length >= 3, { timeoutMs: 30_000, what: 'the three records' });
  expect(arrived('large').map((value) => value.length)).toEqual([
    'large lone'.length,
    large.length,
    large.length,
  ]);
});
