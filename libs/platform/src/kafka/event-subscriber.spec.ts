import { ConsumerConfig, Kafka } from 'kafkajs';
import pino from 'pino';
import { FakeKafkaConsumer } from '@paygrid/testing';
import { ConsumerHealth } from '../health/consumer-health';
import { Metrics } from '../metrics/metrics';
import { EventBatchSubscriber, FetchGather } from './event-subscriber';
import { CONSUMER_DEFAULTS } from './kafka-factory';
import { KafkaNames } from './kafka-names';

/** The configs the subscriber created its consumers with (the broker's side is event-subscriber.int-spec). */
function kafkaRecordingConsumers() {
  const configs: ConsumerConfig[] = [];
  const kafka = {
    consumer: (config: ConsumerConfig) => {
      configs.push(config);
      return new FakeKafkaConsumer().asConsumer();
    },
  } as unknown as Kafka;
  return { kafka, configs };
}

function subscriberOf(kafka: Kafka, fetchGather?: FetchGather): EventBatchSubscriber {
  const logger = pino({ level: 'silent' });
  const metrics = new Metrics('test');
  return new EventBatchSubscriber(
    kafka,
    { names: new KafkaNames('spec'), group: 'ledger', families: ['acquiring'] },
    async (events) => events.map(() => 'applied' as const),
    logger,
    metrics,
    { chunkSize: 10, fetchGather, health: new ConsumerHealth(logger, metrics) },
  );
}

describe('EventBatchSubscriber fetch gathering', () => {
  it('asks the broker to answer at once when no gather is given', async () => {
    const { kafka, configs } = kafkaRecordingConsumers();
    const subscriber = subscriberOf(kafka);
    await subscriber.start();
    await subscriber.stop();
    expect(configs).toHaveLength(1);
    expect(configs[0].minBytes).toBeUndefined();
    expect(configs[0].maxWaitTimeInMs).toBe(CONSUMER_DEFAULTS.maxWaitTimeInMs);
  });

  it('creates its consumer with the gather it was given, the other defaults kept', async () => {
    const { kafka, configs } = kafkaRecordingConsumers();
    const subscriber = subscriberOf(kafka, { minBytes: 131_072, maxWaitTimeInMs: 250 });
    await subscriber.start();
    await subscriber.stop();
    expect(configs[0]).toMatchObject({
      groupId: 'spec-ledger',
      minBytes: 131_072,
      maxWaitTimeInMs: 250,
      sessionTimeout: CONSUMER_DEFAULTS.sessionTimeout,
      allowAutoTopicCreation: false,
    });
  });

  it.each([
    { minBytes: 0, maxWaitTimeInMs: 250 },
    { minBytes: 1024, maxWaitTimeInMs: 0 },
    { minBytes: 1.5, maxWaitTimeInMs: 250 },
    { minBytes: 1024, maxWaitTimeInMs: Number.NaN },
  ])('refuses a gather that is not two positive integers: %o', (gather) => {
    const { kafka, configs } = kafkaRecordingConsumers();
    expect(() => subscriberOf(kafka, gather)).toThrow(RangeError);
    expect(configs).toHaveLength(0);
  });
});
