import { ClientKafka, KafkaOptions, KafkaReplyPartitionAssigner, ServerKafka } from '@nestjs/microservices';
import type { Consumer, ConsumerConfig, Kafka, KafkaMessage, Producer } from 'kafkajs';
import { Logger } from 'pino';
import { ConsumerHealth } from '../health/consumer-health';
import { SupervisedConsumer } from './supervised-consumer';
import { runInKeyedLanes } from './keyed-lanes';
import { coalesceSends } from './coalesced-sends';

/**
 * Nest's Kafka transport (ServerKafka for a service's command consumer, ClientKafka for a sender's reply
 * consumer) with its consumer supervised (supervised-consumer.ts) and no promise left to reject
 * unhandled. Two failures of the stock classes took a service down after a broker outage:
 * - the server sends each reply from a `process.nextTick` callback whose rejection nobody handles, so a
 *   reply sent while the broker is away killed the process (KafkaJSNonRetriableError). Here a reply that
 *   cannot be sent is logged and dropped: the sender times out and its retry, with the same command id,
 *   gets the reply the command ledger stored.
 * - either consumer stayed dead after a crash kafkajs does not recover from. Here a fresh consumer is
 *   started (and readiness is down until it consumes again).
 *
 * The server also handles several commands of a partition at once (the stock one handles one at a
 * time, so a service had at most one command in flight per partition): up to
 * COMMANDS_IN_FLIGHT_PER_PARTITION, never two of the same message key at once and each key's in offset
 * order (keyed-lanes.ts). The key is the command id unless the sender names an aggregate, so a
 * redelivered command waits for its first copy and an aggregate's commands keep their order. Offsets are
 * committed a slice at a time once every command of the slice was handled; a crash re-reads at most the
 * slice, whose commands the command ledger answers with their stored replies.
 *
 * Both producers coalesce their sends (coalesced-sends.ts): the commands, or the replies, sent while a
 * produce request is in flight go out together in the next one.
 */
type NestKafkaOptions = Required<KafkaOptions>['options'];

export const COMMANDS_IN_FLIGHT_PER_PARTITION = 8;
/** Messages handled before their offsets are committed (bounds what a crash replays). */
const COMMAND_SLICE = 64;

export class ResilientServerKafka extends ServerKafka {
  private supervisor?: SupervisedConsumer;

  constructor(
    options: NestKafkaOptions,
    private readonly log: Logger,
    private readonly health: ConsumerHealth,
  ) {
    super(options);
  }

  override async start(callback: () => void): Promise<void> {
    const client = this.client as unknown as Kafka;
    const producer = coalesceSends(client.producer(this.options.producer));
    this.producer = producer as never;
    await producer.connect();
    this.supervisor = this.health.supervise({
      name: 'commands',
      logger: this.log,
      create: () => {
        const consumer = client.consumer({
          ...(this.options.consumer as ConsumerConfig),
          groupId: this.groupId,
        });
        this.consumer = consumer as never;
        return consumer;
      },
      run: (consumer) => this.bindEvents(consumer as never),
    });
    await this.supervisor.start();
    callback();
  }

  override async close(): Promise<void> {
    await this.supervisor?.stop();
    this.consumer = null;
    await super.close();
  }

  override async bindEvents(consumer: Consumer): Promise<void> {
    const topics = [...this.messageHandlers.keys()];
    if (topics.length > 0) await consumer.subscribe({ ...(this.options.subscribe ?? {}), topics });
    await consumer.run({
      ...(this.options.run ?? {}),
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale, pause }) => {
        for (let start = 0; start < batch.messages.length; start += COMMAND_SLICE) {
          if (!isRunning() || isStale()) return;
          const slice = batch.messages.slice(start, start + COMMAND_SLICE);
          await runInKeyedLanes(slice, keyOf, COMMANDS_IN_FLIGHT_PER_PARTITION, (message) =>
            this.handleMessage({ topic: batch.topic, partition: batch.partition, message, heartbeat, pause }),
          );
          resolveOffset(slice[slice.length - 1].offset);
          await heartbeat();
        }
      },
    });
  }

  override async sendMessage(
    ...args: Parameters<ServerKafka['sendMessage']>
  ): ReturnType<ServerKafka['sendMessage']> {
    try {
      return await super.sendMessage(...args);
    } catch (error) {
      const [, replyTopic, , correlationId] = args;
      this.log.warn(
        { err: error, reply_topic: replyTopic, correlation_id: correlationId },
        'could not send a command reply; the sender times out and its retry gets the stored reply',
      );
      return [];
    }
  }
}

function keyOf(message: KafkaMessage): string | null {
  return message.key ? message.key.toString('utf8') : null;
}

/** The reply side of request/reply (the CommandBus's client). */
export class ResilientClientKafka extends ClientKafka {
  private supervisor?: SupervisedConsumer;

  constructor(
    options: NestKafkaOptions,
    private readonly log: Logger,
    private readonly health?: ConsumerHealth,
  ) {
    super(options);
  }

  override connect(): Promise<Producer> {
    this.initialized ??= this.open().catch((error: unknown) => {
      // A failed first connect must not poison every later send: the next connect tries again.
      this.initialized = null;
      throw error;
    });
    return this.initialized.then(() => this._producer as unknown as Producer);
  }

  override async close(): Promise<void> {
    await this.supervisor?.stop();
    this.supervisor = undefined;
    this._consumer = null;
    await super.close();
  }

  private async open(): Promise<void> {
    const client = this.createClient<Kafka>();
    this.client = client as never;
    const health = this.health ?? new ConsumerHealth(this.log);
    this.supervisor = health.supervise({
      name: 'command-replies',
      logger: this.log,
      create: () => this.replyConsumer(client),
      run: () => this.bindTopics(),
    });
    await this.supervisor.start();
    const producer = coalesceSends(client.producer(this.options.producer ?? {}));
    this._producer = producer as never;
    await producer.connect();
  }

  private replyConsumer(client: Kafka): Consumer {
    const consumer = client.consumer({
      partitionAssigners: [(config) => new KafkaReplyPartitionAssigner(this, config as never) as never],
      ...(this.options.consumer as ConsumerConfig),
      groupId: this.groupId,
    });
    // Replies go to the lowest partition this member holds: learn it on every join.
    consumer.on(consumer.events.GROUP_JOIN, (event) => this.setConsumerAssignments(event as never));
    this._consumer = consumer as never;
    return consumer;
  }
}
