import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import Redis from 'ioredis';
import { REPO_ROOT } from './app-launcher';
import {
  APP_CATALOG,
  databaseUrlFor,
  dropDatabase,
  ensureDatabase,
  ensureTopics,
  KafkaNames,
  waitForKafka,
} from '@paygrid/platform';

/**
 * The infrastructure the apps need, on one machine without Docker: a real Kafka broker (started from
 * Apache's jars unless KAFKA_BROKERS points elsewhere), every topic of the stack's prefix (when given;
 * `npm test` only needs the broker, since each test file and the e2e run create their own), one
 * database per app on the local Postgres (or DATABASE_URL's server), and a reachable Redis.
 * `release()` stops only what this call started.
 */
const HERE = path.join(REPO_ROOT, 'deploy/local');

export interface Infrastructure {
  kafkaBrokers: string;
  databaseServerUrl: string;
  redisUrl: string;
  startedKafka: boolean;
  release(): Promise<void>;
}

/** The Redis server of the local stack, its tests and its bench: REDIS_URL, or the machine's own. */
export function localRedisServerUrl(): string {
  return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/** The Postgres server of the local stack: DATABASE_URL (any database on it), or the machine's own. */
export function localDatabaseServerUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** The broker the local stack uses unless it must start one on other ports: KAFKA_BROKERS, or KAFKA_PORT's. */
export function localKafkaBrokers(): string {
  return process.env.KAFKA_BROKERS ?? `127.0.0.1:${process.env.KAFKA_PORT ?? '9092'}`;
}

/**
 * One database per app of the catalog on `serverUrl`'s server, named `<database><suffix>`, created when
 * missing (dropped first when `recreate`). Postgres alone: `npm run migrate` needs no broker and no Redis.
 */
export async function provideDatabases(
  serverUrl: string,
  databaseSuffix: string,
  log: (line: string) => void,
  options: { recreate?: boolean } = {},
): Promise<void> {
  for (const app of APP_CATALOG) {
    const url = databaseUrlFor(serverUrl, `${app.database}${databaseSuffix}`);
    if (options.recreate) await dropDatabase(url);
    const outcome = await ensureDatabase(url);
    if (outcome === 'created') log(`created database ${app.database}${databaseSuffix}`);
  }
}

export async function provideInfrastructure(
  log: (line: string) => void,
  databaseSuffix = '',
  options: {
    recreateDatabases?: boolean;
    kafkaPrefix?: string;
    /** When 9092 is held by a process not ours, run a throwaway broker on free ports instead of failing. */
    otherPortsIfHeld?: boolean;
  } = {},
): Promise<Infrastructure> {
  const externalKafka = process.env.KAFKA_BROKERS;
  const databaseServerUrl = localDatabaseServerUrl();
  const redisUrl = localRedisServerUrl();

  const kafkaPort = process.env.KAFKA_PORT ?? '9092';
  let kafkaBrokers = localKafkaBrokers();
  let startedKafka = false;
  let brokerEnv: NodeJS.ProcessEnv | undefined;
  let stopScript = 'kafka-down.sh';
  if (!externalKafka) {
    let started = startBroker();
    if (started.portHeld && options.otherPortsIfHeld) {
      // Someone else's process (often another checkout's broker) has 9092: a broker of our own on free
      // ports, thrown away at the end, rather than a failure nobody can read or a broker we do not own.
      brokerEnv = await throwawayBrokerEnv();
      stopScript = 'kafka-reset.sh';
      kafkaBrokers = `127.0.0.1:${brokerEnv.KAFKA_PORT}`;
      log(`port ${kafkaPort} is held by another process (above); starting a broker of this run's own on ${kafkaBrokers}`);
      started = startBroker(brokerEnv);
    }
    if (started.portHeld) {
      throw new Error(
        `the Kafka port ${kafkaPort} is held by another process (see the kafka-up line above): stop it, or run with KAFKA_BROKERS=<host:port> to use a broker that is already running`,
      );
    }
    startedKafka = !/already running/i.test(started.output);
    log(started.output.trim());
  } else {
    log(`using Kafka at ${externalKafka}`);
  }
  const release = async () => {
    if (startedKafka) execFileSync('bash', [path.join(HERE, 'kafka', stopScript)], { stdio: 'inherit', env: brokerEnv });
  };
  try {
    if (options.kafkaPrefix) {
      await ensureTopics(kafkaBrokers.split(','), new KafkaNames(options.kafkaPrefix), 90_000);
      log(`kafka topics of stack ${options.kafkaPrefix} ready`);
    } else {
      await waitForKafka(kafkaBrokers.split(','), 90_000);
    }
    await provideDatabases(databaseServerUrl, databaseSuffix, log, { recreate: options.recreateDatabases });
    await checkRedis(redisUrl);
    log('postgres and redis ready');
  } catch (error) {
    await release();
    throw error;
  }
  return { kafkaBrokers, databaseServerUrl, redisUrl, startedKafka, release };
}

/** kafka-up.sh's exit status when a port it needs is held by another process (it names the holder). */
const EXIT_PORT_HELD = 3;

/** Runs kafka-up.sh (stderr to the terminal); `portHeld` when another process has its ports. */
function startBroker(env?: NodeJS.ProcessEnv): { output: string; portHeld: boolean } {
  try {
    const output = execFileSync('bash', [path.join(HERE, 'kafka/kafka-up.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      env,
    });
    return { output, portHeld: false };
  } catch (error) {
    if ((error as { status?: number }).status === EXIT_PORT_HELD) return { output: '', portHeld: true };
    throw new Error(`kafka-up.sh failed (its messages are above): ${(error as Error).message.split('\n')[0]}`);
  }
}

/** The same scripts on free ports, in a folder of their own, with the repository's jars. */
async function throwawayBrokerEnv(): Promise<NodeJS.ProcessEnv> {
  const version = process.env.KAFKA_VERSION ?? '3.9.2';
  return {
    ...process.env,
    KAFKA_PORT: String(await freePort()),
    KAFKA_CONTROLLER_PORT: String(await freePort()),
    KAFKA_BASE_DIR: path.join(REPO_ROOT, '.kafka/brokers/run-' + process.pid),
    KAFKA_LIB_DIR: path.join(REPO_ROOT, '.kafka', `lib-${version}`),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function checkRedis(url: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch {
    throw new Error(`Redis does not answer at ${url}: start it (see README) or set REDIS_URL`);
  } finally {
    redis.disconnect();
  }
}
