import { AppName, appDescriptor } from './app-catalog';
import { env, ConfigSchema } from './config';
import { tracingConfig } from '../tracing/tracing-config';
import { DEFAULT_POOL_IDLE_MS } from '../database/pool-defaults';
import { DEFAULT_KAFKA_PREFIX, KAFKA_PREFIX_PATTERN } from '../kafka/kafka-names';

/** Variables every app reads. Each app adds its own on top (see apps/<app>/src/config.ts). */
export function commonConfig(app: AppName) {
  const { port, database } = appDescriptor(app);
  return {
    NODE_ENV: env.oneOf('runtime environment', ['development', 'test', 'production'] as const, {
      default: 'development',
    }),
    LOG_LEVEL: env.oneOf('pino log level', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, {
      default: 'info',
    }),
    PORT: env.int('HTTP port (health, metrics and, for the gateway, the API)', { default: port, min: 1, max: 65535 }),
    HOST: env.string('HTTP bind address', { default: '127.0.0.1' }),
    DATABASE_URL: env.url(`PostgreSQL URL of this app's own database (${database})`, ['postgres', 'postgresql'], {
      default: `postgres://postgres@127.0.0.1:5432/${database}`,
    }),
    DATABASE_PREPARED_STATEMENTS: env.bool(
      'send parameterised queries as named prepared statements, one set per connection (false behind a pooler in transaction mode)',
      { default: true },
    ),
    DATABASE_POOL_IDLE_MS: env.int(
      'ms a pooled database connection may stay idle before it is closed (each new one re-prepares its statements)',
      { default: DEFAULT_POOL_IDLE_MS, min: 1000, max: 86_400_000 },
    ),
    OUTBOX_RETENTION_HOURS: env.int('hours a published outbox row is kept before it is deleted (0: kept for ever)', {
      default: 168,
      min: 0,
      max: 87_600,
    }),
    OUTBOX_GATHER_MS: env.int('ms the outbox relay waits after a commit woke it, so commits right behind it share its batch', {
      default: 5,
      min: 0,
      max: 100,
    }),
    KAFKA_BROKERS: env.list('comma-separated Kafka bootstrap brokers', { default: '127.0.0.1:9092' }),
    REDIS_URL: env.url('Redis URL', ['redis', 'rediss'], { default: 'redis://127.0.0.1:6379' }),
    KAFKA_PREFIX: env.string(
      "prefix of every Kafka topic and consumer group (stacks with different prefixes share a broker without seeing each other's messages)",
      { default: DEFAULT_KAFKA_PREFIX, pattern: KAFKA_PREFIX_PATTERN },
    ),
    ...tracingConfig(),
  } satisfies ConfigSchema;
}

export type CommonConfig = ReturnType<typeof commonConfig>;
