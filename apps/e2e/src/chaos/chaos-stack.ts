import path from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import {
  APP_CATALOG,
  AppName,
  databaseUrlFor,
  deleteStackTopics,
  dropDatabase,
  ensureDatabase,
  ensureTopics,
  KafkaNames,
} from '@paygrid/platform';
import {
  answersReady,
  AppSupervisor,
  assertPortsFree,
  redisUrlOnDatabase,
  REPO_ROOT,
  StackSettings,
} from '@paygrid/local-stack';
import { LocalBroker } from '@paygrid/testing';
import { ACQUIRING_E2E_ENV } from '../support/stack-settings';

/**
 * The chaos suite's own platform, run exactly as `npm start` runs it (the compiled apps under the
 * AppSupervisor, so a killed app comes back by itself) but apart from everyone else's: its own Kafka
 * prefix, ports 3300–3305, `*_chaos` databases (recreated each run), Redis logical database 14 (flushed
 * by the Redis fault, and by nobody else) and, when a fault stops the broker, a broker of its own
 * (LocalBroker) so the shared one is never touched. Test-speed settings keep a fault's aftermath short.
 */
export const CHAOS_PORT_OFFSET = 300;
export const CHAOS_REDIS_DATABASE = 14;
export const CHAOS_LOG_DIRECTORY = path.join(REPO_ROOT, 'tmp/chaos-logs');
export const CHAOS_DATABASE_SUFFIX = '_chaos';

export interface ChaosStackOptions {
  /** Run on a broker of its own (needed to stop the broker); otherwise on KAFKA_BROKERS (or 127.0.0.1:9092). */
  ownBroker: boolean;
}

export class ChaosStack {
  private constructor(
    readonly settings: StackSettings,
    readonly supervisor: AppSupervisor,
    readonly broker: LocalBroker | undefined,
    readonly names: KafkaNames,
  ) {}

  static async start(options: ChaosStackOptions, say: (line: string) => void): Promise<ChaosStack> {
    const databaseServerUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const redisUrl = redisUrlOnDatabase(
      process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      CHAOS_REDIS_DATABASE,
    );
    const names = new KafkaNames(`paygrid-chaos-${Date.now().toString(36)}`);
    const settings: StackSettings = {
      kafkaBrokers: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
      databaseServerUrl,
      redisUrl,
      portOffset: CHAOS_PORT_OFFSET,
      databaseSuffix: CHAOS_DATABASE_SUFFIX,
      kafkaPrefix: names.prefix,
      logLevel: 'info',
      logSink: { directory: CHAOS_LOG_DIRECTORY },
      extraEnv: CHAOS_APP_ENV,
    };
    await assertPortsFree(settings);
    let broker: LocalBroker | undefined;
    if (options.ownBroker) {
      broker = await LocalBroker.start('chaos');
      settings.kafkaBrokers = broker.address;
      say(`chaos broker on ${broker.address}`);
    }
    await ensureTopics(settings.kafkaBrokers.split(','), names, 90_000);
    for (const app of APP_CATALOG) {
      const url = databaseUrlFor(databaseServerUrl, `${app.database}${CHAOS_DATABASE_SUFFIX}`);
      await dropDatabase(url);
      await ensureDatabase(url);
    }
    await flushChaosRedis(redisUrl);
    const supervisor = new AppSupervisor(settings, (line) => say(line));
    const stack = new ChaosStack(settings, supervisor, broker, names);
    supervisor.start();
    try {
      await supervisor.waitUntilReady(180_000);
    } catch (error) {
      await stack.stop();
      throw new Error(
        `the chaos stack did not start (logs in ${CHAOS_LOG_DIRECTORY}): ${(error as Error).message}`,
      );
    }
    say(`chaos stack ${names.prefix} ready on ports ${3000 + CHAOS_PORT_OFFSET}–${3005 + CHAOS_PORT_OFFSET}`);
    return stack;
  }

  get apiBase(): string {
    return `${this.gatewayBase}/api`;
  }

  get gatewayBase(): string {
    return `http://127.0.0.1:${3000 + CHAOS_PORT_OFFSET}`;
  }

  databaseUrl(database: string): string {
    return databaseUrlFor(this.settings.databaseServerUrl, `${database}${CHAOS_DATABASE_SUFFIX}`);
  }

  async query<T>(database: string, sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new Client({
      connectionString: this.databaseUrl(database),
      application_name: 'paygrid-chaos-check',
    });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** Healthy = every app ready and the gateway's aggregate up (it pings every service over the bus). */
  async healthy(): Promise<boolean> {
    const ready = await Promise.all(
      APP_CATALOG.map((app) => answersReady(this.supervisor.current(app.name).port)),
    );
    if (!ready.every(Boolean)) return false;
    const aggregate = await fetch(`${this.apiBase}/health`, { signal: AbortSignal.timeout(5_000) }).catch(
      () => undefined,
    );
    return aggregate?.status === 200;
  }

  pidOf(app: AppName): number {
    const pid = this.supervisor.current(app).process.pid;
    if (!pid) throw new Error(`${app} has no process`);
    return pid;
  }

  restartsOf(app: AppName): number {
    return this.supervisor.restarts(app);
  }

  async stop(): Promise<void> {
    await this.supervisor.stop();
    await deleteStackTopics(this.settings.kafkaBrokers.split(','), this.names).catch(() => undefined);
    await this.broker?.destroy().catch(() => undefined);
  }
}

/** The stack's own Redis database: nobody else uses it. */
export async function flushChaosRedis(redisUrl: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  try {
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

/** Test-speed settings: short sandbox delays and webhook retries that outlast a 20 s receiver outage. */
const CHAOS_APP_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  COMMAND_TIMEOUT_MS: '4000',
  ACCOUNT_REVIEW_DELAY_MS: '300',
  RATE_LIMIT_PER_SECOND: '2000',
  ...ACQUIRING_E2E_ENV,
  GATEWAY_PUBLIC_URL: `http://127.0.0.1:${3000 + CHAOS_PORT_OFFSET}`,
  // Long enough that a capture retried through a 30 s broker outage still finds the payment authorised.
  CAPTURE_WINDOW_OVERRIDE_MS: '60000',
  WEBHOOK_RETRY_SCHEDULE_MS: '1000,2000,4000,8000,8000,8000,8000,8000',
  WEBHOOK_RECONCILE_INTERVAL_MS: '1000',
  JOBS_RECONCILE_INTERVAL_MS: '1000',
};
