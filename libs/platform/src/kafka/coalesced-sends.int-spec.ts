import pino from 'pino';
import type { Consumer, Kafka, Producer } from 'kafkajs';
import { testBrokers, TestStack, waitFor } from '@paygrid/testing';
import { createKafka } from './kafka-factory';
import { coalesceSends } from './coalesced-sends';

/**
 * Coalesced sends on the real broker: what is sent while a request is in flight leaves in one produce
 * request and arrives once each, in the order sent; a request the broker refuses for its size (two records
 * of 600 KB in one record batch, over its 1 MB `message.max.bytes`) is sent again record by record, and
 * both records arrive.
 */
let stack: TestStack;
let kafka: Kafka;
let producer: Producer;
let consumer: Consumer;
let topic: string;
const received: string[] = [];
const produceRequests: number[] = [];

beforeAll(async () => {
  stack = await TestStack.create('coalesced-sends');
  topic = stack.names.commandTopic('payouts');
  kafka = createKafka('coalesced-sends-test', testBrokers(), pino({ level: 'silent' }));
  producer = coalesceSends(kafka.producer({ allowAutoTopicCreation: false }));
  producer.on(producer.events.REQUEST, (event) => {
    if (event.payload.apiName === 'Produce') produceRequests.push(event.payload.size);
  });
  await producer.connect();
  consumer = kafka.consumer({ groupId: `${stack.prefix}-coalesced-reader`, maxBytes: 10 * 1024 * 1024 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      received.push(message.value?.toString('utf8') ?? '');
    },
  });
}, 120_000);

afterAll(async () => {
  await consumer?.disconnect();
  await producer?.disconnect();
  await stack?.close();
});

beforeEach(() => {
  received.length = 0;
  produceRequests.length = 0;
});

it('sends forty records of one key, sent at once, in two produce requests, and they arrive once each in order', async () => {
  const values = Array.from({ length: 40 }, (_, index) => `command ${index}`);
  await Promise.all(
    values.map((value) => producer.send({ topic, messages: [{ key: 'one-aggregate', value }] })),
  );
  expect(produceRequests).toHaveLength(2);

  await waitFor(() => received.length >= 40, { timeoutMs: 30_000, what: 'the forty records' });
  expect(received).toEqual(values);
});

it("sends a batch over the broker's size limit again record by record", async () => {
  const large = 'x'.repeat(600 * 1024);
  const lone = producer.send({ topic, messages: [{ key: 'same', value: 'small' }] });
  const together = [
    producer.send({ topic, messages: [{ key: 'same', value: large }] }),
    producer.send({ topic, messages: [{ key: 'same', value: large }] }),
  ];
  await lone;
  await Promise.all(together);
  // The lone record, the refused request of two, then one request for each.
  expect(produceRequests).toHaveLength(4);

  await waitFor(() => received.length >= 3, { timeoutMs: 30_000, what: 'the three records' });
  expect(received.map((value) => value.length)).toEqual([5, large.length, large.length]);
});
