import path from 'node:path';
import { redisUrlOnDatabase, REPO_ROOT, StackSettings } from '@paygrid/local-stack';

/**
 * The e2e stack: the six compiled apps on ports 3100–3105 (beside a developer's `npm start` on
 * 3000–3005), their own databases (`*_e2e`, recreated every run), Kafka topics and consumer groups of
 * the run's own (KAFKA_PREFIX `paygrid-e2e-<run>`, created by global-setup, deleted by teardown), their
 * own Redis logical database, and test-speed settings. Test files read the addresses from here.
 */
export const E2E_PORT_OFFSET = 100;
export const E2E_GATEWAY = `http://127.0.0.1:${3000 + E2E_PORT_OFFSET}`;
export const E2E_API = `${E2E_GATEWAY}/api`;
export const E2E_LOG_DIRECTORY = path.join(REPO_ROOT, 'tmp/e2e-logs');
export const E2E_PIDS_FILE = path.join(E2E_LOG_DIRECTORY, 'pids.json');
/** The closing ledger check's verdict (support/ledger-verify.ts); `npm test` reads it at this path (deploy/local/test.ts). */
export const E2E_LEDGER_VERDICT_FILE = path.join(E2E_LOG_DIRECTORY, 'ledger-verify.json');

/** The e2e stack's Redis logical database (integration tests use 11, `npm start` 0). */
export const E2E_REDIS_DATABASE = 12;

/** The run's Kafka prefix, chosen by global-setup and handed to test files through the environment. */
export function e2eKafkaPrefix(): string {
  return setByGlobalSetup('PAYGRID_E2E_KAFKA_PREFIX');
}

/** Where the run's stack found Kafka, Postgres and Redis (the Redis URL on the e2e stack's logical database). */
export interface E2eInfrastructure {
  kafkaBrokers: string;
  databaseServerUrl: string;
  redisUrl: string;
}

/**
 * The run's infrastructure, handed to test files through the environment by global-setup. No fallback
 * address: a default would point a suite at Redis database 0 or at another broker than the stack's.
 */
export function e2eInfrastructure(): E2eInfrastructure {
  return {
    kafkaBrokers: setByGlobalSetup('PAYGRID_E2E_BROKERS'),
    databaseServerUrl: setByGlobalSetup('PAYGRID_E2E_DATABASE_SERVER'),
    redisUrl: setByGlobalSetup('PAYGRID_E2E_REDIS'),
  };
}

/** The run's brokers as a kafkajs client takes them. */
export function e2eKafkaBrokers(): string[] {
  return setByGlobalSetup('PAYGRID_E2E_BROKERS').split(',');
}

function setByGlobalSetup(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: e2e suites run under apps/e2e global-setup`);
  return value;
}

/** Short enough that the kill-and-retry tests do not wait long, long enough for a loaded CI box. */
export const E2E_COMMAND_TIMEOUT_MS = 4000;

/** Acquiring at test speed: a short capture window and sandbox delays, hosted links on the e2e gateway. */
export const ACQUIRING_E2E_ENV = {
  GATEWAY_PUBLIC_URL: E2E_GATEWAY,
  CAPTURE_WINDOW_OVERRIDE_MS: '6000',
  // The test clock of account capture windows: one window hour lasts 2 s (a 1-hour window closes 2 s in).
  CAPTURE_WINDOW_HOUR_MS: '2000',
  ASYNC_CARD_DELAY_MS: '1000',
  SETTLEMENT_DELAY_MS: '800',
  REFUND_DELAY_MS: '300',
  JOBS_RECONCILE_INTERVAL_MS: '300',
};

/** Issuing at test speed: short KYC review and card-order delays, a fast job poller. */
export const ISSUING_E2E_ENV = {
  KYC_REVIEW_DELAY_MS: '400',
  CARD_ORDER_DELAY_MS: '150',
};

/**
 * Payouts at test speed: the sandbox bank rail moves a payout on every few hundred milliseconds, and a
 * step whose worker was SIGKILLed reruns after a 2 s lease instead of a minute (the fault test).
 */
export const PAYOUTS_E2E_ENV = {
  PAYOUT_PROCESSING_DELAY_MS: '300',
  PAYOUT_SETTLE_DELAY_MS: '300',
  PAYOUT_REFUND_DELAY_MS: '300',
  JOBS_LEASE_MS: '2000',
};

export function e2eSettings(infrastructure: {
  kafkaBrokers: string;
  databaseServerUrl: string;
  redisUrl: string;
}): StackSettings {
  return {
    ...infrastructure,
    redisUrl: redisUrlOnDatabase(infrastructure.redisUrl, E2E_REDIS_DATABASE),
    portOffset: E2E_PORT_OFFSET,
    databaseSuffix: '_e2e',
    kafkaPrefix: e2eKafkaPrefix(),
    logLevel: 'info',
    logSink: { directory: E2E_LOG_DIRECTORY },
    extraEnv: {
      NODE_ENV: 'test',
      COMMAND_TIMEOUT_MS: String(E2E_COMMAND_TIMEOUT_MS),
      ACCOUNT_REVIEW_DELAY_MS: '300',
      // High enough for the concurrency tests; the rate-limit test runs its own gateway with a low one.
      RATE_LIMIT_PER_SECOND: '2000',
      // Warm pools buy latency, which no e2e test measures, and the tier's stack shares the server's 100
      // connections with the fault tests' own instances: idle connections go after 10 s, as before
      // docs/performance.md §40 (with the five-minute default the tier peaked at 81).
      DATABASE_POOL_IDLE_MS: '10000',
      ...ACQUIRING_E2E_ENV,
      ...ISSUING_E2E_ENV,
      ...PAYOUTS_E2E_ENV,
    },
  };
}
