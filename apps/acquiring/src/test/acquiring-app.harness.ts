export { actorOf, refusalOf, resultOf } from '@paygrid/testing';
import { randomBytes } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import Redis from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import { CardSecrets, sealCardSecrets } from '@paygrid/card-crypto';
import { Actor, CommandReply, CommandTopics, PING_COMMAND } from '@paygrid/contracts';
import { CommandBus, createHttpApp, createLogger, ensureTopics, loadConfig, Metrics } from '@paygrid/platform';
import { uuidV4 } from '@paygrid/ids';
import { createTestDatabase, TestDatabase, testBrokers, testRedisUrl, waitFor } from '@paygrid/testing';
import { AcquiringModule } from '../acquiring.module';
import { AcquiringConfig, configSchema } from '../config';

/**
 * Boots the real acquiring app in-process for integration tests: a throwaway database on the real
 * Postgres, the real Kafka broker under its own consumer-group prefix, and its own BullMQ prefix in
 * Redis (removed again by `close`). Another acquiring service consuming the same command topic would
 * answer our commands too, so `start` refuses to run beside one.
 */
export interface AcquiringApp {
  app: NestFastifyApplication;
  config: AcquiringConfig;
  dataSource: DataSource;
  close(options?: { keepJobs?: boolean }): Promise<void>;
}

export async function startAcquiringApp(databaseUrl: string, env: Record<string, string> = {}): Promise<AcquiringApp> {
  const groupPrefix = env.KAFKA_GROUP_PREFIX ?? `acq-it-${randomBytes(4).toString('hex')}`;
  const config = loadConfig(configSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PORT: String(20000 + Math.floor(Math.random() * 30000)),
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: testBrokers().join(','),
    REDIS_URL: testRedisUrl(),
    KAFKA_GROUP_PREFIX: groupPrefix,
    JOBS_PREFIX: `acq-it-${randomBytes(4).toString('hex')}`,
    JOBS_RECONCILE_INTERVAL_MS: '200',
    ASYNC_CARD_DELAY_MS: '500',
    SETTLEMENT_DELAY_MS: '300',
    REFUND_DELAY_MS: '200',
    ...env,
  });
  await ensureTopics(testBrokers(), 60_000);
  await refuseIfAnotherAcquiringServiceConsumes(`${groupPrefix}-acquiring-server`);
  const app = await createHttpApp({
    app: 'acquiring',
    module: AcquiringModule.register(config),
    config,
    consumesCommands: true,
  });
  await app.startAllMicroservices();
  await app.init();
  return {
    app,
    config,
    dataSource: app.get(DataSource),
    async close(options = {}) {
      await app.close();
      if (!options.keepJobs) await deleteRedisPrefix(config.JOBS_PREFIX);
    },
  };
}

export function createAcquiringDatabase(): Promise<TestDatabase> {
  return createTestDatabase('paygrid_acquiring');
}

/** Removes every Redis key under a BullMQ prefix of ours (never anyone else's). */
export async function deleteRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(testRedisUrl());
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** A command bus with its own reply group, ready once the acquiring app answers a ping. */
export class AcquiringBus {
  private constructor(private readonly bus: CommandBus) {}

  static async connect(): Promise<AcquiringBus> {
    const groupId = `acq-it-bus-${process.pid}-${randomBytes(3).toString('hex')}`;
    const bus = new CommandBus(
      { clientId: groupId, brokers: testBrokers(), groupId, timeoutMs: 15_000 },
      createLogger('acquiring-it', 'warn'),
      new Metrics('acquiring-it'),
    );
    await bus.connect();
    const ready = new AcquiringBus(bus);
    await waitFor(
      async () => {
        const reply = await bus.request('acquiring', PING_COMMAND, {}, { actor: null, timeoutMs: 2000 }).catch(() => undefined);
        return reply?.ok === true;
      },
      { timeoutMs: 60_000, what: 'the acquiring app to answer a ping' },
    );
    return ready;
  }

  send<R = unknown>(type: string, payload: unknown, options: { actor: Actor | null; commandId?: string | null }): Promise<CommandReply<R>> {
    return this.bus.request<R>('acquiring', type, payload, { ...options, commandId: options.commandId ?? `cmd_${uuidV4()}` });
  }

  close(): Promise<void> {
    return this.bus.close();
  }
}

/** A card payload as the gateway sends it: number and CVC sealed with the transport key. */
export function sealedCard(config: AcquiringConfig, secrets: CardSecrets, extra: Record<string, unknown> = {}) {
  return {
    card: {
      card_name: 'Ada Lovelace',
      expiry_month: '12',
      expiry_year: String(new Date().getUTCFullYear() + 3),
      sealed: sealCardSecrets(secrets, config.CARD_TRANSPORT_KEY),
      ...extra,
    },
  };
}

export function intentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: '10.50',
    currency: 'USD',
    merchant_order_id: `order-${randomBytes(4).toString('hex')}`,
    description: 'Test order',
    return_url: 'https://shop.example/return',
    ...overrides,
  };
}

/**
 * Command topics are shared by every stack on the broker, so another acquiring service (a developer's
 * `npm start`, another engineer's e2e stack) would answer our commands too. Wait for it to go away (up
 * to five minutes), then fail naming it.
 */
async function refuseIfAnotherAcquiringServiceConsumes(ownGroup: string): Promise<void> {
  const kafka = new Kafka({ clientId: 'acquiring-it-probe', brokers: testBrokers(), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  let busy: string[] = [];
  try {
    await waitFor(
      async () => {
        const { groups } = await admin.listGroups();
        const candidates = groups.map((group) => group.groupId).filter((id) => id.endsWith('-acquiring-server') && id !== ownGroup);
        if (candidates.length === 0) return true;
        const described = await admin.describeGroups(candidates);
        busy = described.groups.filter((group) => group.members.length > 0).map((group) => group.groupId);
        return busy.length === 0;
      },
      { timeoutMs: 300_000, intervalMs: 2000, what: 'other acquiring services to stop' },
    ).catch(() => {
      throw new Error(
        `another acquiring service consumes ${CommandTopics.acquiring} (group ${busy.join(', ')}); ` +
          'stop it (or the local stack) before running the acquiring integration tests',
      );
    });
  } finally {
    await admin.disconnect();
  }
}

export { waitFor };
