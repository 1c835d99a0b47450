import { randomBytes } from 'node:crypto';
import { Kafka } from 'kafkajs';
import pino from 'pino';
import { EventFamily } from '@paygrid/contracts';
import { createKafka, deleteStackTopics, ensureTopics, KafkaNames } from '@paygrid/platform';
import { TestCommandClient } from './command-client';
import { testBrokers, testRedisUrl } from './env';
import { EventReader, EventWriter } from './event-stream';

/**
 * A stack of one's own on the shared broker: a Kafka prefix (KAFKA_PREFIX) unique to one test file, with
 * every topic created up front and deleted again by `close`. Apps started with `env()` answer only
 * commands sent on this stack's topics and publish only to its event topics, so test files never see each
 * other's messages, nor a developer's `npm start`, nor an e2e run, and need no private topics or
 * in-process shortcuts to stay apart.
 */
export class TestStack {
  readonly names: KafkaNames;
  private readonly kafka: Kafka;
  private commandClient?: Promise<TestCommandClient>;
  private readonly closers: (() => Promise<unknown>)[] = [];

  private constructor(readonly prefix: string) {
    this.names = new KafkaNames(prefix);
    this.kafka = createKafka('paygrid-test', testBrokers(), pino({ level: 'silent' }));
  }

  /** `label` names the stack's owner in its prefix (`it-<label>-<random>`), for whoever lists the broker. */
  static async create(label: string): Promise<TestStack> {
    const slug =
      label
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 40) || 'test';
    const stack = new TestStack(`it-${slug}-${randomBytes(4).toString('hex')}`);
    await ensureTopics(testBrokers(), stack.names, 60_000);
    return stack;
  }

  /** The Kafka part of an app's environment on this stack. */
  env(): Record<string, string> {
    return { KAFKA_BROKERS: testBrokers().join(','), KAFKA_PREFIX: this.prefix };
  }

  /** An app's whole infrastructure environment on this stack and a database of its own. */
  appEnv(databaseUrl: string): Record<string, string> {
    return {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      REDIS_URL: testRedisUrl(),
      ...this.env(),
    };
  }

  /** The stack's command client (one per stack, connected on first use, closed with the stack). */
  commands(): Promise<TestCommandClient> {
    this.commandClient ??= TestCommandClient.connect(this.names).then((client) => {
      this.onClose(() => client.close());
      return client;
    });
    return this.commandClient;
  }

  /** A new reader of the family's event topic, from its beginning. */
  async eventReader(family: EventFamily): Promise<EventReader> {
    const reader = await EventReader.open(this.kafka, this.names, family);
    this.onClose(() => reader.close());
    return reader;
  }

  async eventWriter(): Promise<EventWriter> {
    const writer = await EventWriter.connect(this.kafka, this.names);
    this.onClose(() => writer.close());
    return writer;
  }

  /** Runs at `close`, before the topics go (last registered first). */
  onClose(closer: () => Promise<unknown>): void {
    this.closers.push(closer);
  }

  async close(): Promise<void> {
    for (const closer of this.closers.splice(0).reverse()) await closer().catch(() => undefined);
    await deleteStackTopics(testBrokers(), this.names);
  }
}
