import { randomUUID } from 'node:crypto';
import { DynamicModule, Module } from '@nestjs/common';
import pino from 'pino';
import { EventTopics, PING_COMMAND } from '@paygrid/contracts';
import {
  appendToOutbox,
  CommandBus,
  commandControllerFor,
  commonConfig,
  createDataSource,
  createHttpApp,
  KafkaNames,
  loadConfig,
  Metrics,
  PlatformModule,
} from '@paygrid/platform';
import { machineCpuBetween, sampleMachineCpu } from './machine-cpu';
import { closedLoop, round, summarise } from './stats';

/**
 * The platform's own baselines, measured on this machine in one run: what a create-like transaction
 * costs in Postgres, and what a Kafka request/reply round trip costs. Every service operation is built
 * from these, so they are the yardsticks for the per-feature figures.
 */
const DURATION_MS = 10_000;

/** Idempotency row + insert + outbox row (+ NOTIFY), committed: the shape of every create command. */
export async function benchPostgresCommit(databaseUrl: string): Promise<Record<string, number>> {
  const dataSource = createDataSource({ url: databaseUrl, app: 'bench', poolSize: 8 });
  await dataSource.initialize();
  await dataSource.runMigrations();
  await dataSource.query('CREATE TABLE IF NOT EXISTS bench_items (id text PRIMARY KEY, amount bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now())');
  const machineBefore = sampleMachineCpu();
  const run = await closedLoop(8, DURATION_MS, () =>
    dataSource.transaction(async (manager) => {
      const id = randomUUID();
      await manager.query(`INSERT INTO processed_commands (command_id, command_type, reply) VALUES ($1, 'bench.create', '{"ok":true}')`, [id]);
      await manager.query('INSERT INTO bench_items (id, amount) VALUES ($1, $2)', [id, 1050]);
      await appendToOutbox(manager, {
        topic: EventTopics.payouts,
        event_name: 'bench.created',
        event_type: 'OPERATIONS',
        source_id: id,
        account_id: 'bench',
        master_account_id: 'bench',
        data: { id },
      });
    }),
  );
  // How the machine spent the run: about half of its busy time in the kernel, a create a fifth (machine-cpu.ts).
  const machine = machineCpuBetween(machineBefore, sampleMachineCpu(), run.latencies.length);
  await dataSource.destroy();
  const latency = summarise(run.latencies);
  return {
    transactions_per_second: round(run.latencies.length / run.seconds, 1),
    ...latency,
    errors: run.errors,
    concurrency: 8,
    ...machine,
  };
}

@Module({})
class PingServiceModule {
  static register(config: Parameters<typeof PlatformModule.forRoot>[0]['config']): DynamicModule {
    return {
      module: PingServiceModule,
      imports: [PlatformModule.forRoot({ app: 'payouts', config, commands: true })],
      controllers: [commandControllerFor('payouts', config)],
    };
  }
}

/**
 * A service answering ping in-process, and the gateway's CommandBus sending to it, on the bench's stack
 * (`kafkaPrefix`, whose topics exist; its payouts app starts only after this).
 */
export async function benchKafkaRoundTrip(brokers: string, kafkaPrefix: string): Promise<Record<string, number>> {
  const config = loadConfig(commonConfig('payouts'), { KAFKA_BROKERS: brokers, KAFKA_PREFIX: kafkaPrefix, LOG_LEVEL: 'silent' });
  const service = await createHttpApp({
    app: 'payouts',
    module: PingServiceModule.register(config),
    config: { ...config, PORT: 0 },
    consumesCommands: true,
  });
  await service.init();
  await service.startAllMicroservices();
  const bus = new CommandBus(
    { clientId: 'bench', brokers: brokers.split(','), names: new KafkaNames(kafkaPrefix), group: 'bench-round-trip', timeoutMs: 10_000 },
    pino({ level: 'silent' }),
    new Metrics('bench'),
  );
  await bus.connect();
  const ping = () => bus.send('payouts', PING_COMMAND, {}, { actor: null });
  for (let warm = 0; warm < 50; warm += 1) await ping();
  const sequential = await closedLoop(1, DURATION_MS / 2, ping);
  const concurrent = await closedLoop(32, DURATION_MS / 2, ping);
  await bus.close();
  await service.close();
  const latency = summarise(sequential.latencies);
  const loaded = summarise(concurrent.latencies);
  return {
    sequential_p50_ms: latency.p50_ms,
    sequential_p99_ms: latency.p99_ms,
    round_trips_per_second_32_in_flight: round(concurrent.latencies.length / concurrent.seconds, 1),
    loaded_p50_ms: loaded.p50_ms,
    loaded_p99_ms: loaded.p99_ms,
    errors: sequential.errors + concurrent.errors,
  };
}
