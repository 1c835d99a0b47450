import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Producer } from 'kafkajs';
import pino from 'pino';
import { EventTopics } from '@paygrid/contracts';
import {
  appendToOutbox,
  createDataSource,
  createKafka,
  createProducer,
  OutboxRelay,
} from '@paygrid/platform';
import {
  AppProcess,
  createTestDatabase,
  deleteRedisKeys,
  ReceivedWebhook,
  TestDatabase,
  testBrokers,
  TestStack,
  waitFor,
  WebhookReceiver,
} from '@paygrid/testing';
import { newId } from '@paygrid/ids';
import { EndpointRepository } from './modules/endpoints/endpoint.repository';
import { newWebhookSecret } from './modules/sending/webhook-signer';
import { defaultKeysSecretVault, dispatcherProcess, dispatcherTestEnv } from './test/dispatcher-service';
import { sdkVerifies, standardWebhooksVerifies } from './test/verifiers';

/**
 * Never lose a delivery, under faults: 1,000 events published through a service's transactional outbox
 * while the compiled dispatcher is SIGKILLed four times mid-run and its BullMQ keys are deleted once (what
 * a Redis FLUSHALL does to it). Every event must reach the receiver at least once, verified with both
 * signature rules, and every duplicate must be the same event: same id, same bytes.
 */
const EVENTS = 1000;
const BATCHES = 20;
const KILLS = 4;
const logger = pino({ level: 'silent' });

let stack: TestStack;
let dispatcherDb: TestDatabase;
let sourceDb: TestDatabase;
let source: DataSource;
let dispatcherData: DataSource;
let producer: Producer;
let relay: OutboxRelay;
let receiver: WebhookReceiver;
let dispatcher: AppProcess;
const env = dispatcherTestEnv({
  WEBHOOK_RETRY_SCHEDULE_MS: '200,500,1000,2000,4000,8000,8000',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_STALLED_INTERVAL_MS: '2000',
  WEBHOOK_RECONCILE_INTERVAL_MS: '500',
});

beforeAll(async () => {
  stack = await TestStack.create('webhook-faults');
  dispatcherDb = await createTestDatabase('paygrid_webhooks');
  sourceDb = await createTestDatabase('wh_fault_source');
  source = createDataSource({ url: sourceDb.url, app: 'wh-fault-source' });
  await source.initialize();
  await source.runMigrations();
  producer = createProducer(createKafka('wh-fault-source', testBrokers(), logger));
  await producer.connect();
  relay = new OutboxRelay(source, producer, stack.names, sourceDb.url, logger, { pollIntervalMs: 50 });
  receiver = await WebhookReceiver.start();
  dispatcher = await dispatcherProcess(stack, dispatcherDb, env);
  await dispatcher.start();
  dispatcherData = createDataSource({ url: dispatcherDb.url, app: 'wh-fault-check' });
  await dispatcherData.initialize();
}, 180_000);

afterAll(async () => {
  await dispatcher?.kill();
  await relay?.stop();
  await producer?.disconnect();
  await receiver?.close();
  await dispatcherData?.destroy();
  await source?.destroy();
  await deleteRedisKeys(env.WEBHOOK_QUEUE_PREFIX);
  await dispatcherDb?.drop();
  await sourceDb?.drop();
  await stack?.close();
});

/** One in ten events is refused at its first attempt, so retries are in flight when the kills land. */
const refusedFirst = (eventId: string) => createHash('sha256').update(eventId).digest()[0] < 26;

function refusedOnce(request: ReceivedWebhook, all: ReceivedWebhook[]): boolean {
  const id = String(request.headers['webhook-id']);
  const firstSeen = all.findIndex((candidate) => candidate.headers['webhook-id'] === id) === all.length - 1;
  return firstSeen && refusedFirst(id);
}

describe('delivery under process kills and a Redis flush', () => {
  it('delivers every one of 1,000 outbox events at least once, duplicates being the same event', async () => {
    const accountId = randomUUID();
    const secret = newWebhookSecret();
    const endpoints = new EndpointRepository(defaultKeysSecretVault());
    const endpoint = await endpoints.insert(dispatcherData, {
      endpointId: newId('whep'),
      accountId,
      masterAccountId: accountId,
      url: receiver.url('/faults'),
      description: 'fault test',
      eventNames: ['payout.*'],
      includeSubAccounts: false,
    });
    await endpoints.insertSecret(dispatcherData, endpoint.endpointId, secret);
    // Which events the receiver accepted (answered 2xx), as opposed to merely saw.
    const accepted = new Set<string>();
    receiver.respond('/faults', (request) => {
      if (refusedOnce(request, receiver.received('/faults'))) return { status: 503 };
      accepted.add(String(request.headers['webhook-id']));
      return { status: 200 };
    });
    await relay.start();

    const published: string[] = [];
    const publishing = (async () => {
      for (let batch = 0; batch < BATCHES; batch += 1) {
        const ids = await source.transaction(async (manager) => {
          const created: string[] = [];
          for (let index = 0; index < EVENTS / BATCHES; index += 1) {
            const event = await appendToOutbox(manager, {
              topic: EventTopics.payouts,
              event_name: 'payout.completed',
              event_type: 'PAYOUT',
              source_id: `po_fault_${batch}_${index}`,
              account_id: accountId,
              master_account_id: accountId,
              data: {
                payout_id: `po_fault_${batch}_${index}`,
                payout_amount: '12.34',
                payout_currency: 'USD',
                payout_status: 'COMPLETED',
              },
            });
            created.push(event.event_id);
          }
          return created;
        });
        published.push(...ids);
        // Pacing, not waiting: publishing is spread out so the kills land while work is in flight.
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
    })();

    const received = () =>
      new Set(receiver.received('/faults').map((request) => String(request.headers['webhook-id'])));
    for (let kill = 1; kill <= KILLS; kill += 1) {
      // Kill while work is in flight: after some deliveries arrived since the last start.
      const before = received().size;
      await waitFor(() => received().size >= Math.min(before + 100, EVENTS), {
        timeoutMs: 120_000,
        what: `progress before kill ${kill}`,
      });
      await dispatcher.restart();
      // Once mid-run, Redis loses every job of ours: the reconciler must rebuild them from Postgres.
      if (kill === 2) await deleteRedisKeys(env.WEBHOOK_QUEUE_PREFIX);
    }
    await publishing;
    expect(published).toHaveLength(EVENTS);

    try {
      await waitFor(() => published.every((id) => accepted.has(id)), {
        timeoutMs: 180_000,
        intervalMs: 250,
        what: 'every event accepted by the receiver',
      });
    } catch (error) {
      const missing = published.filter((id) => !accepted.has(id));
      throw new Error(
        `${missing.length} events never arrived (e.g. ${missing.slice(0, 3).join(', ')}); dispatcher output:\n${dispatcher.output.slice(-30).join('\n')}`,
        {
          cause: error,
        },
      );
    }

    // Postgres agrees: one delivery per event, every one succeeded.
    await waitFor(
      async () => {
        const [row] = await dispatcherData.query(
          `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded
             FROM webhook_deliveries WHERE endpoint_id = $1`,
          [endpoint.endpointId],
        );
        return row.total === EVENTS && row.succeeded === EVENTS;
      },
      { timeoutMs: 30_000, what: 'every delivery to be recorded as succeeded' },
    );
    const requests = receiver.received('/faults');
    const bodies = new Map<string, Set<string>>();
    for (const request of requests) {
      const id = String(request.headers['webhook-id']);
      expect(JSON.parse(request.rawBody).event_id).toBe(id);
      bodies.set(id, (bodies.get(id) ?? new Set()).add(request.rawBody));
    }
    expect([...bodies.values()].every((variants) => variants.size === 1)).toBe(true);
    // The events refused at first were retried (across the kills) until they got through.
    const refused = published.filter(refusedFirst);
    expect(refused.length).toBeGreaterThan(50);
    const deliveriesOf = (id: string) =>
      requests.filter((request) => request.headers['webhook-id'] === id).length;
    expect(refused.filter((id) => deliveriesOf(id) < 2)).toEqual([]);
    expect(new Set(requests.map((request) => String(request.headers['webhook-id'])))).toEqual(
      new Set(published),
    );
    // Spot-check signatures across the whole run (both rules, at arrival time).
    for (const request of requests.filter((_, index) => index % 50 === 0)) {
      const at = Math.floor(request.receivedAt / 1000);
      expect(sdkVerifies(request.rawBody, request.headers, secret, at)).toBe(true);
      expect(standardWebhooksVerifies(request.rawBody, request.headers, secret, at)).toBe(true);
    }
    expect(dispatcher.starts).toBe(KILLS + 1);

    const duplicates = requests.length - published.length;
    process.stdout.write(
      `fault test: ${requests.length} requests for ${published.length} events ` +
        `(${refused.length} refused once on purpose, ${duplicates - refused.length} duplicates from the kills)\n`,
    );
  }, 600_000);
});
