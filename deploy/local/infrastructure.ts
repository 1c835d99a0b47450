import { execFileSync } from 'node:child_process';
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

export async function provideInfrastructure(
  log: (line: string) => void,
  databaseSuffix = '',
  options: { recreateDatabases?: boolean; kafkaPrefix?: string } = {},
): Promise<Infrastructure> {
  const externalKafka = process.env.KAFKA_BROKERS;
  const kafkaBrokers = externalKafka ?? '127.0.0.1:9092';
  const databaseServerUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

  let startedKafka = false;
  if (!externalKafka) {
    const output = execFileSync('bash', [path.join(HERE, 'kafka/kafka-up.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    startedKafka = !/already running/i.test(output);
    log(output.trim());
  } else {
    log(`using Kafka at ${externalKafka}`);
  }
  const release = async () => {
    if (startedKafka) execFileSync('bash', [path.join(HERE, 'kafka/kafka-down.sh')], { stdio: 'inherit' });
  };
  try {
    if (options.kafkaPrefix) {
      await ensureTopics(kafkaBrokers.split(','), new KafkaNames(options.kafkaPrefix), 90_000);
      log(`kafka topics of stack ${options.kafkaPrefix} ready`);
    } else {
      await waitForKafka(kafkaBrokers.split(','), 90_000);
    }
    for (const app of APP_CATALOG) {
      const url = databaseUrlFor(databaseServerUrl, `${app.database}${databaseSuffix}`);
      if (options.recreateDatabases) await dropDatabase(url);
      const outcome = await ensureDatabase(url);
      if (outcome === 'created') log(`created database ${app.database}${databaseSuffix}`);
    }
    await checkRedis(redisUrl);
    log('postgres and redis ready');
  } catch (error) {
    await release();
    throw error;
  }
  return { kafkaBrokers, databaseServerUrl, redisUrl, startedKafka, release };
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
