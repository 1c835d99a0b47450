import {
  BeforeApplicationShutdown,
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Optional,
  Provider,
} from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { Kafka, Producer } from 'kafkajs';
import Redis from 'ioredis';
import { Logger } from 'pino';
import { DatabaseOptions } from '../database/data-source';
import { AppDatabaseConfig, createAppDataSource, migrateUnderLock } from '../database/app-database';
import { createKafka, createProducer } from '../kafka/kafka-factory';
import { CommandDispatcher } from '../kafka/command-dispatcher';
import { ErrorMapper } from '../commands/command-ledger';
import { OutboxRelay } from '../outbox/outbox-relay';
import { createLogger } from '../logging/logger';
import { Metrics } from '../metrics/metrics';
import { MetricsController } from '../metrics/metrics.controller';
import { HealthCheck, HealthController } from '../health/health';
import { ConsumerHealth } from '../health/consumer-health';
import { HttpErrorFilter } from '../http/http-errors';
import { HttpDrain } from '../http/http-drain';
import { APP_CONFIG, APP_NAME, COMMAND_ERROR_MAPPER, HEALTH_CHECKS, KAFKA, KAFKA_ADMIN, LOGGER, REDIS, REDIS_SCRIPTS } from './tokens';
import { RedisScripts } from '../redis/redis-scripts';
import { closeRedis } from './close-redis';
import { KafkaAdminHandle } from '../kafka/kafka-admin';
import { KafkaNames, kafkaNamesOf } from '../kafka/kafka-names';
import { AppName } from '../config/app-catalog';
import { JobsModule } from '../jobs/jobs.module';
import { JobsOptions } from '../jobs/job.types';
import { warnWhenAutovacuumIsOff } from '../database/autovacuum-check';
import { OutboxRetention } from '../outbox/outbox-retention';

/**
 * Everything an app needs from infrastructure, wired once: config, logger, metrics, its database
 * (migrated at boot), Kafka and the stack's topic and group names (KafkaNames), Redis, the outbox relay,
 * the command dispatcher, health and metrics endpoints. Apps import `PlatformModule.forRoot(...)` and
 * inject what they use.
 */
export interface PlatformOptions {
  app: AppName;
  config: AppDatabaseConfig & {
    /** Optional so a test's hand-made config need not name it: 168 (7 days) unless given; 0 keeps every row. */
    OUTBOX_RETENTION_HOURS?: number;
    OUTBOX_GATHER_MS?: number;
    KAFKA_BROKERS: string[];
    KAFKA_PREFIX: string;
    REDIS_URL: string;
    LOG_LEVEL: string;
  };
  /**
   * The app's own entities and migrations (its AppMigrations declaration, apps/<app>/src/migrations/index.ts);
   * omit for an app without a database.
   */
  database?: Omit<DatabaseOptions, 'url' | 'app'>;
  /** Whether the app answers commands on its command topic (every service; not the gateway). */
  commands?: boolean;
  /**
   * How the service's domain errors (a refused transition, say) become ApiErrors inside a command.
   * Given here, not as an app provider: the dispatcher lives in this global module's scope.
   */
  commandErrors?: ErrorMapper;
  /** Whether the app keeps a Redis connection (rate limits, BullMQ). */
  redis?: boolean;
  /** Whether the app runs Lua scripts on its hot path, on a lean connection of their own (redis-scripts.ts). */
  redisScripts?: boolean;
  /** Whether the app publishes events through its outbox (default: when it has a database). */
  outbox?: boolean;
  /** Durable jobs (Postgres record + BullMQ + reconciler) on this queue; needs a database declaring `durableJobs`. */
  jobs?: JobsOptions;
}

@Injectable()
export class OutboxLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private relay?: OutboxRelay;
  private producer?: Producer;
  private retention?: OutboxRetention;

  constructor(
    @Inject(KAFKA) private readonly kafka: Kafka,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: PlatformOptions['config'],
    private readonly names: KafkaNames,
    private readonly metrics: Metrics,
    @Optional() private readonly dataSource?: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.dataSource) return;
    this.producer = createProducer(this.kafka);
    await this.producer.connect();
    this.relay = new OutboxRelay(this.dataSource, this.producer, this.names, this.config.DATABASE_URL, this.logger, {
      gatherMs: this.config.OUTBOX_GATHER_MS,
      afterPublish: async (ids) => {
        this.metrics.outboxPublished.inc(ids.length);
        this.metrics.outboxBatches.inc();
      },
    });
    await this.relay.start();
    this.retention = new OutboxRetention(this.dataSource, this.logger, { retentionHours: this.config.OUTBOX_RETENTION_HOURS ?? 168 }, (rows) =>
      this.metrics.outboxPruned.inc(rows),
    );
    this.retention.start();
    const dataSource = this.dataSource;
    this.metrics.outboxPendingSource = async () => {
      const [row] = await dataSource.query('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL');
      return row.n;
    };
  }

  /** Before the connections close (ConnectionsLifecycle runs on onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.retention?.stop();
    await this.relay?.stop();
    await this.producer?.disconnect();
  }
}

@Injectable()
class ConnectionsLifecycle implements OnApplicationShutdown {
  constructor(
    @Optional() private readonly dataSource?: DataSource,
    @Optional() @Inject(REDIS) private readonly redis?: Redis,
    @Optional() @Inject(REDIS_SCRIPTS) private readonly redisScripts?: RedisScripts,
    @Optional() @Inject(KAFKA_ADMIN) private readonly admin?: KafkaAdminHandle,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.admin?.close();
    await this.redisScripts?.close();
    if (this.redis) await closeRedis(this.redis);
    if (this.dataSource?.isInitialized) await this.dataSource.destroy();
  }
}

/**
 * The durable jobs' table is migrated when the database declares it, not when `jobs` is given, so that
 * `npm run migrate` (which reads only the declaration) creates it too: the two must agree.
 */
function assertJobsMatchDatabase(options: PlatformOptions): void {
  if (options.jobs && !options.database) throw new Error('durable jobs need the app to have a database');
  if (!options.database || Boolean(options.jobs) === Boolean(options.database.durableJobs)) return;
  throw new Error(
    options.jobs
      ? `${options.app} keeps durable jobs but its database does not declare durableJobs: true (its migrations/index.ts)`
      : `${options.app} declares durableJobs but passes no jobs options`,
  );
}

@Global()
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    assertJobsMatchDatabase(options);
    const logger = createLogger(options.app, options.config.LOG_LEVEL);
    const providers: Provider[] = [
      { provide: APP_NAME, useValue: options.app },
      { provide: APP_CONFIG, useValue: options.config },
      { provide: LOGGER, useValue: logger },
      { provide: Metrics, useValue: new Metrics(options.app) },
      { provide: KAFKA, useFactory: () => createKafka(options.app, options.config.KAFKA_BROKERS, logger) },
      { provide: KafkaNames, useValue: kafkaNamesOf(options.config) },
      { provide: KAFKA_ADMIN, useFactory: (kafka: Kafka) => new KafkaAdminHandle(kafka), inject: [KAFKA] },
      {
        provide: ConsumerHealth,
        useFactory: (kafka: Kafka, metrics: Metrics) => ConsumerHealth.attach(kafka, new ConsumerHealth(logger, metrics)),
        inject: [KAFKA, Metrics],
      },
      HttpErrorFilter,
      HttpDrain,
      ConnectionsLifecycle,
    ];
    const checkDeps: (symbol | typeof DataSource | typeof ConsumerHealth)[] = [KAFKA_ADMIN, ConsumerHealth];

    if (options.database) {
      const database = options.database;
      providers.push({
        provide: DataSource,
        useFactory: async () => {
          const dataSource = createAppDataSource({ app: options.app, config: options.config, database });
          await dataSource.initialize();
          await migrateUnderLock(dataSource);
          await warnWhenAutovacuumIsOff(dataSource, logger);
          return dataSource;
        },
      });
      if (options.outbox !== false) providers.push(OutboxLifecycle);
      checkDeps.push(DataSource);
    }
    if (options.redis) {
      providers.push({
        provide: REDIS,
        // Auto-pipelining: commands issued in the same tick (concurrent requests' rate limits, idempotency
        // claims) leave in one write, one syscall, instead of one each; order per connection is unchanged.
        useFactory: () =>
          new Redis(options.config.REDIS_URL, {
            maxRetriesPerRequest: 2,
            connectionName: options.app,
            enableAutoPipelining: true,
          }),
      });
      checkDeps.push(REDIS);
    }
    if (options.redisScripts) {
      providers.push({
        provide: REDIS_SCRIPTS,
        inject: [LOGGER],
        useFactory: (logger: Logger) => RedisScripts.connect(options.config.REDIS_URL, `${options.app}-scripts`, logger),
      });
      checkDeps.push(REDIS_SCRIPTS);
    }
    if (options.commands) {
      providers.push(CommandDispatcher);
      if (options.commandErrors) providers.push({ provide: COMMAND_ERROR_MAPPER, useValue: options.commandErrors });
    }

    providers.push({
      provide: HEALTH_CHECKS,
      inject: checkDeps,
      useFactory: (...deps: unknown[]): HealthCheck[] => {
        const [admin, consumers, ...rest] = deps as [KafkaAdminHandle, ConsumerHealth, ...unknown[]];
        const result: HealthCheck[] = [
          { name: 'kafka', check: () => admin.describeCluster() },
          { name: 'consumers', check: () => consumers.check() },
        ];
        for (const dep of rest) {
          if (dep instanceof DataSource) result.push({ name: 'postgres', check: () => dep.query('SELECT 1') });
          else if (dep instanceof Redis) result.push({ name: 'redis', check: () => dep.ping() });
          else if (dep instanceof RedisScripts) result.push({ name: 'redis-scripts', check: () => dep.ping() });
        }
        return result;
      },
    });
    const jobs = options.jobs ? [JobsModule.forRoot(options.jobs, options.config.REDIS_URL, options.app)] : [];
    return {
      module: PlatformModule,
      imports: [DiscoveryModule, ...jobs],
      controllers: [HealthController, MetricsController],
      providers,
      exports: [...providers.filter((provider) => provider !== ConnectionsLifecycle), ...jobs],
    };
  }
}
