import pino from 'pino';
import { FakeKafkaConsumer, waitFor } from '@paygrid/testing';
import { ConsumerHealth } from '../health/consumer-health';
import { Metrics } from '../metrics/metrics';

function harness(options: { failConnects?: number } = {}) {
  const logger = pino({ level: 'silent' });
  const metrics = new Metrics('test');
  const health = new ConsumerHealth(logger, metrics);
  const consumers: FakeKafkaConsumer[] = [];
  let failuresLeft = options.failConnects ?? 0;
  const supervisor = health.supervise({
    name: 'commands',
    backoff: { initialMs: 1, maxMs: 5 },
    create: () => {
      const fail = consumers.length > 0 && failuresLeft > 0;
      if (fail) failuresLeft -= 1;
      const consumer = new FakeKafkaConsumer(fail);
      consumers.push(consumer);
      return consumer.asConsumer();
    },
    // As kafkajs' run() does: resolves once the group is joined.
    run: async (consumer) => (consumer as unknown as FakeKafkaConsumer).join(),
  });
  return { supervisor, health, consumers, metrics };
}

describe('SupervisedConsumer', () => {
  it('is ready once its consumer joined the group', async () => {
    const { supervisor, health } = harness();
    await expect(health.check()).rejects.toThrow('not consuming: commands starting');
    await supervisor.start();
    expect(supervisor.state).toBe('running');
    await expect(health.check()).resolves.toEqual({ consumers: 1 });
    await supervisor.stop();
  });

  it('starts a fresh consumer after a crash kafkajs will not recover from, and is not ready until it joined', async () => {
    const { supervisor, health, consumers, metrics } = harness();
    await supervisor.start();
    consumers[0].crash(false);
    expect(supervisor.state).toBe('restarting');
    await expect(health.check()).rejects.toThrow('commands restarting (Failed to find group coordinator)');

    await waitFor(() => supervisor.state === 'running', { what: 'a fresh consumer to join' });
    expect(consumers).toHaveLength(2);
    expect(consumers[0].disconnects).toBeGreaterThan(0);
    expect(consumers[1].connected).toBe(true);
    await expect(health.check()).resolves.toEqual({ consumers: 1 });
    expect(await metrics.registry.getSingleMetricAsString('paygrid_kafka_consumer_restarts_total')).toContain(
      'paygrid_kafka_consumer_restarts_total{consumer="commands",app="test"} 1',
    );
    await supervisor.stop();
  });

  it('leaves a retriable crash to kafkajs and is ready again when the same consumer rejoins', async () => {
    const { supervisor, health, consumers } = harness();
    await supervisor.start();
    consumers[0].crash(true, 'KafkaJSNumberOfRetriesExceeded');
    await expect(health.check()).rejects.toThrow('restarting');
    consumers[0].join();
    expect(supervisor.state).toBe('running');
    expect(consumers).toHaveLength(1);
    await supervisor.stop();
  });

  it('keeps trying while the broker stays away', async () => {
    const { supervisor, consumers } = harness({ failConnects: 3 });
    await supervisor.start();
    consumers[0].crash(false);
    await waitFor(() => supervisor.state === 'running', {
      what: 'the consumer to come back after 3 failed starts',
    });
    expect(consumers).toHaveLength(5);
    expect(consumers.slice(1, 4).every((consumer) => !consumer.connected)).toBe(true);
    await supervisor.stop();
  });

  it('fails its first start, so a process that cannot consume at boot exits', async () => {
    const logger = pino({ level: 'silent' });
    const supervisor = new ConsumerHealth(logger).supervise({
      name: 'commands',
      create: () => new FakeKafkaConsumer(true).asConsumer(),
      run: async () => undefined,
    });
    await expect(supervisor.start()).rejects.toThrow('ECONNREFUSED');
  });

  it('starts nothing after stop, even with a crash pending', async () => {
    const { supervisor, health, consumers } = harness();
    await supervisor.start();
    consumers[0].crash(false);
    await supervisor.stop();
    expect(supervisor.state).toBe('stopped');
    await expect(health.check()).resolves.toEqual({ consumers: 0 });
    // A relaunch scheduled before stop finds the supervisor stopped and builds no consumer.
    await new Promise((resolve) => setImmediate(resolve));
    expect(consumers).toHaveLength(1);
  });
});

describe('ConsumerHealth.downLongerThan (liveness)', () => {
  it('names a consumer only once it has been down longer than the grace', async () => {
    const { supervisor, health, consumers } = harness({ failConnects: 1_000 });
    await supervisor.start();
    expect(health.downLongerThan(60_000)).toEqual([]);
    consumers[0].crash(false);
    expect(health.downLongerThan(60_000)).toEqual([]);
    supervisor.since = Date.now() - 61_000;
    expect(health.downLongerThan(60_000)).toEqual(['commands']);
    await supervisor.stop();
    expect(health.downLongerThan(0)).toEqual([]);
  });
});

describe('ConsumerHealth.of', () => {
  it("finds the app's registry by its Kafka client, and no other app's", () => {
    const logger = pino({ level: 'silent' });
    const [kafkaA, kafkaB] = [{}, {}];
    const health = ConsumerHealth.attach(kafkaA, new ConsumerHealth(logger));
    expect(ConsumerHealth.of(kafkaA)).toBe(health);
    expect(ConsumerHealth.of(kafkaB)).toBeUndefined();
  });
});
