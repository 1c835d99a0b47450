export { actorOf, refusalOf, resultOf } from '@paygrid/testing';
import { randomBytes } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import Redis from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import { ClientKafka } from '@nestjs/microservices';
import { lastValueFrom, timeout } from 'rxjs';
import { Actor, CommandEnvelope, CommandReply, CommandTopic, PING_COMMAND } from '@paygrid/contracts';
import { createHttpApp, createLogger, loadConfig, nestKafkaOptions, REDIS } from '@paygrid/platform';
import { createTestDatabase, TestDatabase, testBrokers, testPostgresUrl, testRedisUrl, waitFor } from '@paygrid/testing';
import { ensureTopics } from '@paygrid/platform';
import { AccountsModule } from '../accounts.module';
import { AccountsConfig, configSchema } from '../config';
import { AccountRepository, NewAccount } from '../modules/accounts/account.repository';
import { uuidV4 } from '@paygrid/ids';
import { anAccount } from './fixtures';

/**
 * Boots the real accounts app in-process for integration tests: its own throwaway database on the
 * real Postgres, the real Kafka broker, and Redis (logical database 11, so test revocations do not
 * land in the set a local gateway reads).
 *
 * Isolation on a shared broker: every stack on it (a developer's, an e2e run) consumes
 * `paygrid.accounts.commands`, each from its own group, so commands sent there would be answered by
 * all of them, each from its own database. The test app therefore answers on a command topic of its
 * own (created here, deleted after), and TestBus sends there with Nest's ClientKafka, the transport
 * the platform's CommandBus wraps (which can only address the contract's topics).
 */
export const TEST_REDIS_DB = 11;

export interface AccountsApp {
  app: NestFastifyApplication;
  config: AccountsConfig;
  dataSource: DataSource;
  redis: Redis;
  close(): Promise<void>;
}

export async function createAccountsDatabase(): Promise<TestDatabase> {
  return createTestDatabase('paygrid_accounts');
}

export function testRedisUrlForAccounts(): string {
  const url = new URL(testRedisUrl());
  url.pathname = `/${TEST_REDIS_DB}`;
  return url.toString();
}

/** One prefix per test process: the app's group and the bus's group never meet another run's. */
export const TEST_GROUP_PREFIX = `paygrid-it-${process.pid}-${randomBytes(3).toString('hex')}`;

/** This run's private command topic (and its `.reply`). */
export const TEST_COMMAND_TOPIC = `${TEST_GROUP_PREFIX}.accounts.commands` as CommandTopic;

/**
 * Starts the app on `databaseUrl`, answering on TEST_COMMAND_TOPIC; `commands: false` skips Kafka
 * for tests of boot-time behaviour.
 */
export async function startAccountsApp(
  databaseUrl: string,
  env: Record<string, string> = {},
  options: { commands?: boolean } = {},
): Promise<AccountsApp> {
  const commands = options.commands ?? true;
  const config = loadConfig(configSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PORT: String(20000 + Math.floor(Math.random() * 30000)),
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: testBrokers().join(','),
    REDIS_URL: testRedisUrlForAccounts(),
    ACCOUNT_REVIEW_DELAY_MS: '300',
    ACCOUNT_REVIEW_POLL_MS: '100',
    KAFKA_GROUP_PREFIX: TEST_GROUP_PREFIX,
    ...env,
  });
  if (commands) {
    await ensureTopics(testBrokers(), 60_000);
    await createTestTopics();
  }
  const module = AccountsModule.register(config, { commandTopic: TEST_COMMAND_TOPIC });
  const app = await createHttpApp({ app: 'accounts', module, config, consumesCommands: commands });
  await app.init();
  if (commands) await app.startAllMicroservices();
  return {
    app,
    config,
    dataSource: app.get(DataSource),
    redis: app.get<Redis>(REDIS),
    async close() {
      await app.close();
      if (commands) await deleteTestTopics();
    },
  };
}

/** Request/reply on TEST_COMMAND_TOPIC, ready once the accounts app answers a ping. */
export class TestBus {
  private constructor(private readonly client: ClientKafka) {}

  static async connect(): Promise<TestBus> {
    const logger = createLogger('accounts-it', 'warn');
    const nest = nestKafkaOptions('accounts-it', testBrokers(), `${TEST_GROUP_PREFIX}-bus`, logger);
    const client = new ClientKafka(nest.options ?? {});
    client.subscribeToResponseOf(TEST_COMMAND_TOPIC);
    await client.connect();
    const testBus = new TestBus(client);
    // A command sent before a consumer's first fetch has resolved its offsets is skipped; ping until one lands.
    await waitFor(
      async () => {
        const reply = await testBus.send(PING_COMMAND, {}, { actor: null, timeoutMs: 2000 }).catch(() => undefined);
        return reply?.ok === true;
      },
      { timeoutMs: 60_000, what: 'the accounts app to answer a ping' },
    );
    return testBus;
  }

  /** The envelope and message the platform's CommandBus sends, on the test topic. */
  send<R = unknown>(
    type: string,
    payload: unknown,
    options: { actor: Actor | null; commandId?: string; timeoutMs?: number },
  ): Promise<CommandReply<R>> {
    const envelope: CommandEnvelope = {
      type,
      command_id: options.commandId ?? null,
      actor: options.actor,
      payload,
      sent_at: new Date().toISOString(),
    };
    const message = { key: options.actor?.account_id ?? null, value: envelope, headers: {} };
    return lastValueFrom(
      this.client.send<CommandReply<R>>(TEST_COMMAND_TOPIC, message).pipe(timeout(options.timeoutMs ?? 10_000)),
    );
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** A fresh ACTIVE master with two ACTIVE sub-accounts, written straight to the database. */
export async function insertFamily(dataSource: DataSource): Promise<{ master: string; sub: string; sibling: string }> {
  const repository = new AccountRepository();
  const master = uuidV4();
  const sub = uuidV4();
  const sibling = uuidV4();
  for (const [accountId, parentAccountId] of [
    [master, null],
    [sub, master],
    [sibling, master],
  ] as const) {
    const { shortReferenceId: _minted, reviewDueAt: _due, createdAt: _created, updatedAt: _updated, ...rest } = anAccount({
      accountId,
      parentAccountId,
      accountName: `Account ${accountId.slice(0, 8)}`,
    });
    const account: NewAccount = rest;
    await repository.insert(dataSource, account, { reviewDelayMs: null });
  }
  return { master, sub, sibling };
}

function admin() {
  return new Kafka({ clientId: 'accounts-it-admin', brokers: testBrokers(), logLevel: logLevel.NOTHING }).admin();
}

async function createTestTopics(): Promise<void> {
  const client = admin();
  await client.connect();
  try {
    await client.createTopics({
      waitForLeaders: true,
      topics: [TEST_COMMAND_TOPIC, `${TEST_COMMAND_TOPIC}.reply`].map((topic) => ({ topic, numPartitions: 1, replicationFactor: 1 })),
    });
  } finally {
    await client.disconnect();
  }
}

async function deleteTestTopics(): Promise<void> {
  const client = admin();
  await client.connect();
  try {
    await client.deleteTopics({ topics: [TEST_COMMAND_TOPIC, `${TEST_COMMAND_TOPIC}.reply`] });
  } catch {
    // Already gone (a second close): nothing to clean.
  } finally {
    await client.disconnect();
  }
}

export { testPostgresUrl, waitFor };
