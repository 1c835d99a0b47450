/* eslint-disable @nx/enforce-module-boundaries -- the bench measures the dispatcher alone, in-process, so it reaches its repository and signer */
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import pino from 'pino';
import { EventTopics } from '@paygrid/contracts';
import {
  appendToOutbox,
  createDataSource,
  createKafka,
  createProducer,
  OutboxRelay,
} from '@paygrid/platform';
import { createTestDatabase, deleteRedisKeys, testBrokers, TestStack, waitFor, WebhookReceiver } from '@paygrid/testing';
import { newId } from '@paygrid/ids';
import { EndpointRepository } from '../../apps/webhook-dispatcher/src/modules/endpoints/endpoint.repository';
import { newWebhookSecret } from '../../apps/webhook-dispatcher/src/modules/sending/webhook-signer';
import { defaultKeysSecretVault, dispatcherProcess, dispatcherTestEnv } from '../../apps/webhook-dispatcher/src/test/dispatcher-service';

/**
 * Webhook delivery benchmark: the compiled dispatcher as its own process, a service's transactional
 * outbox feeding it through the real Kafka broker (on a stack of topics of its own), and a local
 * receiver on 127.0.0.1 answering 200.
 *
 * - Throughput: a burst of events committed to the outbox while its relay is paused; deliveries per second
 *   from the moment the relay resumes to the last arrival at the receiver.
 * - Latency: events committed one at a time at a steady pace (so nothing queues behind a burst); for each,
 *   the time from its outbox commit to its arrival at the receiver, p50 and p99. That spans the outbox relay,
 *   Kafka, the intake transaction (store + fan-out), BullMQ and the signed HTTP POST.
 *
 * Needs the build (`npm run bench` builds; directly: `npm run -s build && node -r
 * ./deploy/local/register-paths.js dist/bench/webhooks/bench-webhooks.js`), Postgres, Redis and Kafka.
 * Sizes: WEBHOOK_BENCH_EVENTS (burst, default 2000), WEBHOOK_BENCH_PACED_EVENTS (default 200).
 */
const logger = pino({ level: 'silent' });
const PACED_INTERVAL_MS = 20;

export interface WebhookBenchOptions {
  burstEvents?: number;
  pacedEvents?: number;
}

export async function runWebhookBench(options: WebhookBenchOptions = {}): Promise<Record<string, number>> {
  const burstEvents = options.burstEvents ?? Number(process.env.WEBHOOK_BENCH_EVENTS ?? 2000);
  const pacedEvents = options.pacedEvents ?? Number(process.env.WEBHOOK_BENCH_PACED_EVENTS ?? 200);
  const stack = await TestStack.create('webhook-bench');
  const dispatcherDb = await createTestDatabase('paygrid_webhooks');
  const sourceDb = await createTestDatabase('wh_bench_source');
  const source = createDataSource({ url: sourceDb.url, app: 'wh-bench-source' });
  const producer = createProducer(createKafka('wh-bench-source', testBrokers(), logger));
  const relay = new OutboxRelay(source, producer, stack.names, sourceDb.url, logger, { pollIntervalMs: 50 });
  const receiver = await WebhookReceiver.start();
  const env = dispatcherTestEnv({ LOG_LEVEL: 'error', WEBHOOK_CONCURRENCY: '100' });
  const dispatcher = await dispatcherProcess(stack, dispatcherDb, env);
  const dispatcherData = createDataSource({ url: dispatcherDb.url, app: 'wh-bench-setup' });
  const arrivals = new Map<string, number>();
  receiver.onRequest((request) => {
    const id = String(request.headers['webhook-id']);
    if (!arrivals.has(id)) arrivals.set(id, performance.timeOrigin + performance.now());
  });

  try {
    await source.initialize();
    await source.runMigrations();
    await producer.connect();
    await dispatcher.start();
    await dispatcherData.initialize();
    const accountId = randomUUID();
    const endpoints = new EndpointRepository(defaultKeysSecretVault());
    const endpoint = await endpoints.insert(dispatcherData, {
      endpointId: newId('whep'),
      accountId,
      masterAccountId: accountId,
      url: receiver.url('/bench'),
      description: 'bench',
      eventNames: [],
      includeSubAccounts: false,
    });
    await endpoints.insertSecret(dispatcherData, endpoint.endpointId, newWebhookSecret());
    await relay.start();

    const commit = (count: number) => commitEvents(source, accountId, count);
    const arrived = (ids: string[], what: string) =>
      waitFor(() => ids.every((id) => arrivals.has(id)), { timeoutMs: 300_000, intervalMs: 20, what });

    await arrived((await commit(50)).ids, 'the warm-up deliveries');

    // The burst waits in the outbox while the relay is stopped, so the measure is the pipeline's pace
    // (relay, Kafka, intake, delivery), not how fast this process can write outbox rows.
    await relay.stop();
    const burstIds: string[] = [];
    for (let sent = 0; sent < burstEvents; sent += 100)
      burstIds.push(...(await commit(Math.min(100, burstEvents - sent))).ids);
    const burstStart = now();
    await relay.start();
    await arrived(burstIds, 'the burst deliveries');
    const burstEnd = Math.max(...burstIds.map((id) => arrivals.get(id) ?? 0));
    const deliveriesPerSecond = burstEvents / ((burstEnd - burstStart) / 1000);

    const latencies: number[] = [];
    const committedAt = new Map<string, number>();
    for (let index = 0; index < pacedEvents; index += 1) {
      const { ids, at } = await commit(1);
      committedAt.set(ids[0], at);
      await new Promise((resolve) => setTimeout(resolve, PACED_INTERVAL_MS));
    }
    await arrived([...committedAt.keys()], 'the paced deliveries');
    for (const [id, at] of committedAt) latencies.push((arrivals.get(id) ?? at) - at);
    latencies.sort((a, b) => a - b);

    return {
      webhook_burst_events: burstEvents,
      webhook_deliveries_per_second: round(deliveriesPerSecond),
      webhook_paced_events: pacedEvents,
      webhook_event_to_delivery_p50_ms: round(percentile(latencies, 50)),
      webhook_event_to_delivery_p99_ms: round(percentile(latencies, 99)),
      webhook_event_to_delivery_max_ms: round(latencies[latencies.length - 1] ?? 0),
    };
  } finally {
    await dispatcher.kill();
    await relay.stop().catch(() => undefined);
    await producer.disconnect().catch(() => undefined);
    await receiver.close();
    if (dispatcherData.isInitialized) await dispatcherData.destroy();
    if (source.isInitialized) await source.destroy();
    await deleteRedisKeys(env.WEBHOOK_QUEUE_PREFIX).catch(() => 0);
    await dispatcherDb.drop();
    await sourceDb.drop();
    await stack.close();
  }
}

/** Commits `count` payout events in one outbox transaction; `at` is right after the commit. */
async function commitEvents(
  source: DataSource,
  accountId: string,
  count: number,
): Promise<{ ids: string[]; at: number }> {
  const ids = await source.transaction(async (manager) => {
    const created: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const payoutId = `po_bench_${randomUUID().slice(0, 8)}`;
      const event = await appendToOutbox(manager, {
        topic: EventTopics.payouts,
        event_name: 'payout.completed',
        event_type: 'PAYOUT',
        source_id: payoutId,
        account_id: accountId,
        master_account_id: accountId,
        data: {
          payout_id: payoutId,
          payout_amount: '12.34',
          payout_currency: 'USD',
          payout_status: 'COMPLETED',
        },
      });
      created.push(event.event_id);
    }
    return created;
  });
  return { ids, at: now() };
}

function now(): number {
  return performance.timeOrigin + performance.now();
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

if (require.main === module) {
  runWebhookBench()
    .then((results) => {
      const width = Math.max(...Object.keys(results).map((key) => key.length));
      process.stdout.write('webhook delivery benchmark\n');
      for (const [key, value] of Object.entries(results))
        process.stdout.write(`  ${key.padEnd(width)}  ${value}\n`);
      process.exit(0);
    })
    .catch((error: unknown) => {
      process.stderr.write(`webhook bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    });
}
