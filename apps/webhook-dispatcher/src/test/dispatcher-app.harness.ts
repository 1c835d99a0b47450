export { actorOf, refusalOf, resultOf } from '@paygrid/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import Redis from 'ioredis';
import { Kafka, logLevel, Producer } from 'kafkajs';
import pino from 'pino';
import {
  Actor,
  CommandDefinition,
  CommandReply,
  DomainEvent,
  EVENT_ENVELOPE_VERSION,
  EventCategory,
  EventTopic,
  EventTopics,
  PayloadOf,
  ResultOf,
} from '@paygrid/contracts';
import { ConnectedBus } from '../../../../tools/cli/src/cli';
import {
  ApiError,
  CommandDispatcher,
  createHttpApp,
  createKafka,
  createProducer,
  ensureTopics,
  loadConfig,
} from '@paygrid/platform';
import { createTestDatabase, TestDatabase, testBrokers, testRedisUrl } from '@paygrid/testing';
import { configSchema, DispatcherConfig } from '../config';
import { WebhookDispatcherModule } from '../webhook-dispatcher.module';

/**
 * Boots the real webhook dispatcher for integration tests: its own throwaway database on the real
 * Postgres, its own Kafka consumer-group prefix and BullMQ prefix (so nothing another stack holds is
 * touched, and our Redis keys can be deleted to simulate a flush), the real broker for events. The intake
 * group is primed to the end of every event topic first, so a new test group does not read their history.
 *
 * Commands are dispatched in-process, through the app's own CommandDispatcher (the object its Kafka
 * controller hands every command to), not over the shared command topic: every dispatcher consuming that
 * topic answers every command, so a developer's stack or an e2e run on the same broker would answer ours
 * from its own database (and ours theirs). Events still travel through the real broker.
 */
const silent = pino({ level: 'silent' });

export interface TestIdentity {
  groupPrefix: string;
  queuePrefix: string;
}

export function newTestIdentity(): TestIdentity {
  const tag = randomBytes(4).toString('hex');
  return { groupPrefix: `it-wh-${tag}`, queuePrefix: `it-wh-${tag}` };
}

/** The environment of a test dispatcher: fast schedule, short timeouts, private URLs allowed. */
export function dispatcherEnv(
  databaseUrl: string,
  identity: TestIdentity,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(20000 + Math.floor(Math.random() * 30000)),
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: testBrokers().join(','),
    REDIS_URL: testRedisUrl(),
    KAFKA_GROUP_PREFIX: identity.groupPrefix,
    WEBHOOK_QUEUE_PREFIX: identity.queuePrefix,
    WEBHOOK_RETRY_SCHEDULE_MS: '100,200,400',
    WEBHOOK_RETRY_JITTER_PERCENT: '20',
    WEBHOOK_RETRY_AFTER_MAX_MS: '3000',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_RECONCILE_INTERVAL_MS: '300',
    WEBHOOK_STALLED_INTERVAL_MS: '2000',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    OPS_TOKEN: 'it-ops-token-0123456789',
    ...overrides,
  };
}

/** Before a new intake group joins: start it at the current end of every event topic. */
export async function prepareKafka(identity: TestIdentity): Promise<void> {
  await ensureTopics(testBrokers(), 60_000);
  await startGroupAtEnd(`${identity.groupPrefix}-webhook-intake`, Object.values(EventTopics));
}

/** Commits the current end of each topic as the offsets of a group that has never run. */
async function startGroupAtEnd(groupId: string, topics: string[]): Promise<void> {
  const admin = createKafka('wh-it-prime', testBrokers(), silent).admin();
  await admin.connect();
  try {
    for (const topic of topics) {
      const ends = await admin.fetchTopicOffsets(topic);
      await admin.setOffsets({
        groupId,
        topic,
        partitions: ends.map(({ partition, high }) => ({ partition, offset: high })),
      });
    }
  } finally {
    await admin.disconnect();
  }
}

export interface DispatcherApp {
  app: NestFastifyApplication;
  config: DispatcherConfig;
  dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * `consumesCommands: true` also consumes the real command topic (for tests that go through the gateway):
 * call `assertNoOtherDispatcher` first, since every consuming dispatcher answers every command.
 */
export async function startDispatcherApp(
  database: TestDatabase,
  identity: TestIdentity,
  overrides: Record<string, string> = {},
  options: { consumesCommands?: boolean } = {},
): Promise<DispatcherApp> {
  const config = loadConfig(configSchema, dispatcherEnv(database.url, identity, overrides));
  await prepareKafka(identity);
  const app = await createHttpApp({
    app: 'webhook-dispatcher',
    module: WebhookDispatcherModule.register(config),
    config,
    consumesCommands: options.consumesCommands ?? false,
  });
  await app.init();
  if (options.consumesCommands) await app.startAllMicroservices();
  return { app, config, dataSource: app.get(DataSource), close: () => app.close() };
}

export function createDispatcherDatabase(): Promise<TestDatabase> {
  return createTestDatabase('paygrid_webhooks');
}

/** Sends commands to the test dispatcher as its Kafka controller would (see the header). */
export class WebhookTestBus {
  constructor(private readonly dispatcher: CommandDispatcher) {}

  static of(app: DispatcherApp): WebhookTestBus {
    return new WebhookTestBus(app.app.get(CommandDispatcher));
  }

  async send<R = unknown>(
    type: string,
    payload: unknown,
    actor: Actor | null,
    options: { commandId?: string } = {},
  ): Promise<CommandReply<R>> {
    // Through JSON, as over Kafka: the handlers see exactly what a real command carries.
    const envelope = JSON.parse(
      JSON.stringify({
        type,
        command_id: options.commandId ?? null,
        actor,
        payload,
        sent_at: new Date().toISOString(),
      }),
    );
    const reply = await this.dispatcher.dispatch(envelope);
    return JSON.parse(JSON.stringify(reply)) as CommandReply<R>;
  }

  /** A mutating command with a fresh command id, as the gateway would send it. */
  mutate<R = unknown>(type: string, payload: unknown, actor: Actor | null): Promise<CommandReply<R>> {
    return this.send<R>(type, payload, actor, { commandId: `cmd-${randomUUID()}` });
  }

  /** The CLI's bus (operator scope: actor null); a refusal is thrown as an ApiError, as CommandBus does. */
  cliBus(): ConnectedBus {
    return {
      execute: async <C extends CommandDefinition>(
        definition: C,
        payload: PayloadOf<C>,
        options: { commandId?: string } = {},
      ): Promise<ResultOf<C>> => {
        const reply = await this.send<ResultOf<C>>(definition.type, payload, null, options);
        if (reply.ok) return reply.result;
        throw ApiError.from({
          status: reply.error.status,
          body: reply.error.body as never,
          headers: reply.error.headers,
        });
      },
      ready: async () => undefined,
      close: async () => undefined,
    };
  }
}

/** A domain event as a service's outbox would publish it. */
export function anEvent(overrides: Partial<DomainEvent> & { account_id: string }): DomainEvent {
  return {
    event_id: randomUUID(),
    event_name: 'acquiring.payment_intent.succeeded',
    event_type: 'ACQUIRING' as EventCategory,
    version: EVENT_ENVELOPE_VERSION,
    source_id: `pi_${randomBytes(6).toString('hex')}`,
    master_account_id: overrides.account_id,
    create_time: new Date().toISOString(),
    data: { payment_intent_id: 'pi_test', amount: '10.00', currency: 'USD', intent_status: 'SUCCEEDED' },
    ...overrides,
  };
}

/** Publishes domain events straight to their topic (keyed by source id, like the outbox relay). */
export class EventPublisher {
  private constructor(private readonly producer: Producer) {}

  static async connect(): Promise<EventPublisher> {
    const producer = createProducer(createKafka('wh-it-publisher', testBrokers(), silent));
    await producer.connect();
    return new EventPublisher(producer);
  }

  async publish(events: DomainEvent[], topic: EventTopic = EventTopics.acquiring): Promise<void> {
    await this.producer.send({
      topic,
      acks: -1,
      messages: events.map((event) => ({ key: event.source_id, value: JSON.stringify(event) })),
    });
  }

  close(): Promise<void> {
    return this.producer.disconnect();
  }
}

/** Deletes every Redis key under our BullMQ prefix: what a FLUSHALL does to the queue, without touching others. */
export async function deleteQueueKeys(queuePrefix: string): Promise<number> {
  const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: 2 });
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${queuePrefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/**
 * Waits (up to `timeoutMs`) until no other dispatcher consumes the webhooks command topic (a local stack,
 * an e2e run), then refuses with a clear message: every consuming dispatcher answers every command.
 */
export async function assertNoOtherDispatcher(timeoutMs = 0): Promise<void> {
  const admin = new Kafka({
    clientId: 'wh-it-probe',
    brokers: testBrokers(),
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  const busyGroups = async () => {
    const { groups } = await admin.listGroups();
    const servers = groups
      .map((group) => group.groupId)
      .filter((id) => id.endsWith('-webhook-dispatcher-server'));
    if (servers.length === 0) return [];
    const described = await admin.describeGroups(servers);
    return described.groups.filter((group) => group.members.length > 0).map((group) => group.groupId);
  };
  try {
    const deadline = Date.now() + timeoutMs;
    let busy = await busyGroups();
    while (busy.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      busy = await busyGroups();
    }
    if (busy.length > 0) {
      throw new Error(
        `another webhook dispatcher consumes the webhooks command topic (groups ${busy.join(', ')}) and would answer ` +
          "this test's commands from its own database; stop it (or wait for the e2e run) and run again",
      );
    }
  } finally {
    await admin.disconnect();
  }
}
