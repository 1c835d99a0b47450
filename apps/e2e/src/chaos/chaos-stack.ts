import path from 'node:path';
import Redis from 'ioredis';
import { AssignerProtocol, Kafka, logLevel } from 'kafkajs';
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
  appPort,
  AppSupervisor,
  assertPortsFree,
  localRedisServerUrl,
  redisUrlOnDatabase,
  REPO_ROOT,
  StackSettings,
} from '@paygrid/local-stack';
import { LocalBroker } from '@paygrid/testing';
import { ACQUIRING_E2E_ENV, ISSUING_E2E_ENV, PAYOUTS_E2E_ENV } from '../support/stack-settings';

/**
 * The chaos suite's own platform, run exactly as `npm start` runs it (the compiled apps under the
 * AppSupervisor, so a killed app comes back by itself) but apart from everyone else's: its own Kafka
 * prefix, ports 3300–3305, `*_chaos` databases (recreated each run), Redis logical database 14 (flushed
 * by the Redis fault, and by nobody else) and, when a fault stops the broker, a broker of its own
 * (LocalBroker) so the shared one is never touched. Test-speed settings keep a fault's aftermath short.
 *
 * With `replicas: 2` every app runs twice (the second replicas on ports 3310–3315), sharing databases
 * and consumer groups; the client spreads its requests over both gateways, as a load balancer would.
 */
export const CHAOS_PORT_OFFSET = 300;
export const CHAOS_REDIS_DATABASE = 14;
export const CHAOS_LOG_DIRECTORY = path.join(REPO_ROOT, 'tmp/chaos-logs');
export const CHAOS_DATABASE_SUFFIX = '_chaos';

export interface ChaosStackOptions {
  /** Run on a broker of its own (needed to stop the broker); otherwise on KAFKA_BROKERS (or 127.0.0.1:9092). */
  ownBroker: boolean;
  /** Processes of every app (1 or 2). */
  replicas: number;
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
      localRedisServerUrl(),
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
      replicas: options.replicas,
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
    say(
      `chaos stack ${names.prefix} ready: ${options.replicas} replica(s) of every app, gateways on ${stack.apiBases.join(', ')}`,
    );
    return stack;
  }

  get replicas(): number {
    return this.supervisor.replicas;
  }

  /** The first gateway's API (the one `npm start` prints). */
  get apiBase(): string {
    return this.apiBases[0];
  }

  /** Every gateway replica's API, for a client that spreads its requests as a load balancer would. */
  get apiBases(): string[] {
    return Array.from(
      { length: this.replicas },
      (_, replica) => `http://127.0.0.1:${appPort(this.settings, 3000, replica)}/api`,
    );
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

  /**
   * Healthy = every replica of every app ready and each gateway's aggregate up (it pings every service
   * over the bus).
   */
  async healthy(): Promise<boolean> {
    return (await this.unhealthy()).length === 0;
  }

  /** What is not healthy yet, as on-call would read it: `acquiring#2 not ready`, `gateway#1: service:payouts down`. */
  async unhealthy(): Promise<string[]> {
    const label = (app: { name: AppName; replica?: number }) =>
      this.replicas === 1 ? app.name : `${app.name}#${(app.replica ?? 0) + 1}`;
    const instances = this.supervisor.instances();
    const ready = await Promise.all(instances.map((app) => answersReady(app.port)));
    const problems = instances.filter((_, index) => !ready[index]).map((app) => `${label(app)} not ready`);
    if (problems.length > 0) return problems;
    const aggregates = await Promise.all(this.apiBases.map((base) => aggregateHealth(base)));
    return aggregates.flatMap((down, replica) =>
      down.length === 0 ? [] : [`${label({ name: 'gateway', replica })}: ${down.join(', ')} down`],
    );
  }

  pidOf(app: AppName, replica = 0): number {
    const pid = this.supervisor.current(app, replica).process.pid;
    if (!pid) throw new Error(`${app} has no process`);
    return pid;
  }

  restartsOf(app: AppName, replica = 0): number {
    return this.supervisor.restarts(app, replica);
  }

  /**
   * Whether the app's consumer group is settled on `members` members that between them hold every
   * partition of the topic the app serves (a service: its command topic; the gateway: the replies),
   * i.e. a dead replica's partitions have moved to the live ones.
   */
  async partitionsHeldBy(app: AppName, members: number): Promise<boolean> {
    const { group, topic } = servingGroupOf(this.names, app);
    const admin = new Kafka({
      clientId: 'paygrid-chaos-check',
      brokers: this.settings.kafkaBrokers.split(','),
      logLevel: logLevel.NOTHING,
      retry: { retries: 1 },
    }).admin();
    try {
      await admin.connect();
      const [described] = (await admin.describeGroups([group])).groups;
      const partitions = (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0].partitions.length;
      if (described?.state !== 'Stable' || described.members.length !== members) return false;
      const held = new Set<number>();
      for (const member of described.members) {
        const assignment = AssignerProtocol.MemberAssignment.decode(member.memberAssignment);
        for (const partition of assignment?.assignment[topic] ?? []) held.add(partition);
      }
      return held.size === partitions;
    } catch {
      return false;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  async stop(): Promise<void> {
    await this.supervisor.stop();
    await deleteStackTopics(this.settings.kafkaBrokers.split(','), this.names).catch(() => undefined);
    await this.broker?.destroy().catch(() => undefined);
  }
}

/** The checks a gateway's `/api/health` reports down (all of them when it does not answer). */
async function aggregateHealth(apiBase: string): Promise<string[]> {
  try {
    const response = await fetch(`${apiBase}/health`, { signal: AbortSignal.timeout(5_000) });
    if (response.status === 200) return [];
    const report = (await response.json()) as { checks?: Record<string, { status: string }> };
    const down = Object.entries(report.checks ?? {}).filter(([, check]) => check.status !== 'up');
    return down.length > 0 ? down.map(([name]) => name) : [`/api/health ${response.status}`];
  } catch {
    return ['/api/health (no answer)'];
  }
}

/** The group whose partitions carry an app's work: Nest's server group for a service, the reply group for the gateway. */
function servingGroupOf(names: KafkaNames, app: AppName): { group: string; topic: string } {
  const descriptor = APP_CATALOG.find((candidate) => candidate.name === app);
  if (!descriptor?.family)
    return { group: `${names.group(app)}-client`, topic: names.replyTopic('acquiring') };
  return { group: `${names.group(app)}-server`, topic: names.commandTopic(descriptor.family) };
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

/**
 * How long an approved card authorization stays held before issuing's clearing job posts it: short, so the
 * invariants see every authorization of a fault cleared soon after its load, and long enough that a
 * reversal sent right after its authorization wins the race with the clearing unless a fault holds it
 * back (a reversal that loses is refused, and the load marks it late: chaos-cards.ts).
 */
export const CHAOS_AUTH_CLEARING_DELAY_MS = 10_000;

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
  ...PAYOUTS_E2E_ENV,
  ...ISSUING_E2E_ENV,
  AUTH_CLEARING_DELAY_MS: String(CHAOS_AUTH_CLEARING_DELAY_MS),
  WEBHOOK_RETRY_SCHEDULE_MS: '1000,2000,4000,8000,8000,8000,8000,8000',
  WEBHOOK_RECONCILE_INTERVAL_MS: '1000',
  JOBS_RECONCILE_INTERVAL_MS: '1000',
};
