export { actorOf, refusalOf, resultOf } from '@paygrid/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import pino from 'pino';
import { Actor, CommandDefinition, CommandReply, EventTopics, PayloadOf, ResultOf, SANDBOX_SEED_DEFAULTS } from '@paygrid/contracts';
import { CommandDispatcher, createHttpApp, createKafka, ensureTopics, loadConfig } from '@paygrid/platform';
import { createTestDatabase, TestDatabase, testBrokers, testRedisUrl } from '@paygrid/testing';
import { configSchema, IssuingConfig } from '../config';
import { IssuingModule } from '../issuing.module';

/**
 * Boots the real issuing app in-process for integration tests: a throwaway database on the real Postgres, the
 * real broker for events under a consumer-group prefix of its own (primed to the end of the accounts topic, so
 * it does not read other stacks' history), test-speed sandbox delays. Commands go through the app's own
 * CommandDispatcher (what its Kafka controller hands every command to), not over the shared command topic,
 * which every issuing service on the broker answers.
 */
const silent = pino({ level: 'silent' });

export interface IssuingApp {
  app: NestFastifyApplication;
  config: IssuingConfig;
  dataSource: DataSource;
  bus: IssuingTestBus;
  close(): Promise<void>;
}

export async function startIssuingApp(database: TestDatabase, overrides: Record<string, string> = {}): Promise<IssuingApp> {
  const groupPrefix = `it-iss-${randomBytes(4).toString('hex')}`;
  const config = loadConfig(configSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(20000 + Math.floor(Math.random() * 30000)),
    DATABASE_URL: database.url,
    KAFKA_BROKERS: testBrokers().join(','),
    REDIS_URL: testRedisUrl(),
    KAFKA_GROUP_PREFIX: groupPrefix,
    KYC_REVIEW_DELAY_MS: '200',
    CARD_ORDER_DELAY_MS: '100',
    JOBS_POLL_INTERVAL_MS: '100',
    ...overrides,
  });
  await ensureTopics(testBrokers(), 60_000);
  await startGroupAtEnd(`${groupPrefix}-issuing-accounts`, [EventTopics.accounts]);
  const app = await createHttpApp({
    app: 'issuing',
    module: IssuingModule.register(config, { commandTopic: `paygrid-it-${groupPrefix}.issuing.commands` }),
    config,
    consumesCommands: false,
  });
  await app.init();
  const dataSource = app.get(DataSource);
  return { app, config, dataSource, bus: new IssuingTestBus(app.get(CommandDispatcher)), close: () => app.close() };
}

export function createIssuingDatabase(): Promise<TestDatabase> {
  return createTestDatabase('paygrid_issuing');
}

async function startGroupAtEnd(groupId: string, topics: string[]): Promise<void> {
  const admin = createKafka('iss-it-prime', testBrokers(), silent).admin();
  await admin.connect();
  try {
    for (const topic of topics) {
      const ends = await admin.fetchTopicOffsets(topic);
      await admin.setOffsets({ groupId, topic, partitions: ends.map(({ partition, high }) => ({ partition, offset: high })) });
    }
  } finally {
    await admin.disconnect();
  }
}

/** Sends commands as the Kafka controller would: through JSON, with a fresh command id for mutations. */
export class IssuingTestBus {
  constructor(private readonly dispatcher: CommandDispatcher) {}

  async send<C extends CommandDefinition>(
    definition: C,
    payload: PayloadOf<C> | Record<string, unknown>,
    actor: Actor | null,
    options: { commandId?: string } = {},
  ): Promise<CommandReply<ResultOf<C>>> {
    const envelope = JSON.parse(
      JSON.stringify({
        type: definition.type,
        command_id: definition.mutates ? (options.commandId ?? `cmd-${randomUUID()}`) : null,
        actor,
        payload,
        sent_at: new Date().toISOString(),
      }),
    );
    return JSON.parse(JSON.stringify(await this.dispatcher.dispatch(envelope))) as CommandReply<ResultOf<C>>;
  }
}

/** The sandbox accounts the app provisions at boot, as actors. */
export const SANDBOX_ACTORS = {
  master: sandboxActor(SANDBOX_SEED_DEFAULTS.master.accountId),
  sub1: sandboxActor(SANDBOX_SEED_DEFAULTS.sub1.accountId),
};

function sandboxActor(accountId: string): Actor {
  return {
    account_id: accountId,
    master_account_id: SANDBOX_SEED_DEFAULTS.master.accountId,
    caller_account_id: accountId,
    client_id: 'cli_it',
    permissions: ['sensitive_card_details'],
  };
}
