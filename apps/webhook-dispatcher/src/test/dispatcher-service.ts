import { randomBytes } from 'node:crypto';
import { AppProcess, ServiceHarness, TestDatabase, TestStack } from '@paygrid/testing';
import { DataSource } from 'typeorm';
import { createDataSource, loadConfig } from '@paygrid/platform';
import { configSchema } from '../config';
import { WebhookSecretVault } from '../modules/secrets/webhook-secret-vault';
import { WebhookDispatcherModule } from '../webhook-dispatcher.module';

/**
 * The webhook dispatcher under the shared test harness (libs/testing), in-process (ServiceHarness) or as
 * the compiled process a test can SIGKILL (AppProcess). What is particular to the dispatcher: a fast
 * retry schedule (attempt 1 at once, then 100, 200, 400 ms ±20 %, Retry-After capped at 3 s), short
 * timeouts, private receiver URLs allowed, an ops token, and a BullMQ prefix of its own, deleted whenever
 * the in-process app stops (what a FLUSHALL does to its queue, without touching anyone else's keys).
 */
export type DispatcherService = ServiceHarness<typeof configSchema>;

export function dispatcherTestEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    WEBHOOK_QUEUE_PREFIX: `it-wh-${randomBytes(4).toString('hex')}`,
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

export function startDispatcher(overrides: Record<string, string> = {}): Promise<DispatcherService> {
  return ServiceHarness.start({
    app: 'webhook-dispatcher',
    configSchema,
    module: (config) => WebhookDispatcherModule.register(config),
    env: dispatcherTestEnv(overrides),
    redisPrefixes: (config) => [config.WEBHOOK_QUEUE_PREFIX],
  });
}

/** The compiled dispatcher on `stack` (not started); its queue prefix is `env.WEBHOOK_QUEUE_PREFIX`. */
export function dispatcherProcess(
  stack: TestStack,
  database: TestDatabase,
  env: Record<string, string>,
): Promise<AppProcess> {
  return AppProcess.on(stack, 'webhook-dispatcher', database.url, env);
}

/**
 * The vault of a dispatcher started with the default (development) secret keys, for tests that write
 * endpoints straight into its database: they must seal secrets as the dispatcher does.
 */
export function defaultKeysSecretVault(env: Record<string, string> = {}): WebhookSecretVault {
  return new WebhookSecretVault(loadConfig(configSchema, { NODE_ENV: 'test', ...env }));
}

/**
 * `migrations` up to and including `last`: the schema as it stood when `last` was the newest, for a test that
 * undoes the newest migrations one by one or writes rows the next migration must carry over.
 */
// TypeORM's own parameter type: migration classes.
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function migrationsThrough(migrations: Function[], last: Function): Function[] {
  const index = migrations.indexOf(last);
  if (index < 0) throw new Error(`${last.name} is not among the dispatcher's migrations`);
  return migrations.slice(0, index + 1);
}

/**
 * A dispatcher database at `url` built by `migrations` alone, without the app (no reconciler, no intake), for
 * tests that look at the schema and its SQL directly. The caller destroys it.
 */
// TypeORM's own parameter type: migration classes.
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export async function migratedDispatcherDatabase(url: string, migrations: Function[]): Promise<DataSource> {
  const data = createDataSource({ url, app: 'webhook-dispatcher', migrations });
  await data.initialize();
  await data.runMigrations();
  return data;
}
