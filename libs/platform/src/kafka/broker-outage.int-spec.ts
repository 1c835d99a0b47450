import { DataSource } from 'typeorm';
import { EventTopics, PING_COMMAND } from '@paygrid/contracts';
import {
  AppProcess,
  createTestDatabase,
  LocalBroker,
  TestCommandClient,
  TestDatabase,
  TestStack,
  waitFor,
} from '@paygrid/testing';
import { appendToOutbox } from '../outbox/outbox-writer';
import { createDataSource } from '../database/data-source';

/**
 * A broker outage long enough for every consumer to crash (the issue's 20 s outage killed acquiring and
 * left the gateway's reply consumer and the services' command consumers dead for good), on a broker of
 * this test's own. Nothing is restarted by hand: once the broker is back, the service and the gateway are
 * ready again within 30 s, commands make the round trip, and an outbox row written during the outage is
 * published. Readiness says "down" while the consumers are down. Neither process ever exits.
 */
let broker: LocalBroker;
let stack: TestStack;
let payoutsDb: TestDatabase;
let gatewayDb: TestDatabase;
let payouts: AppProcess;
let gateway: AppProcess;
let client: TestCommandClient;
let payoutsData: DataSource;
const sharedBrokers = process.env.KAFKA_BROKERS;

interface Readiness {
  status: 'up' | 'down';
  checks: Record<string, { status: 'up' | 'down'; error?: string }>;
}

async function readiness(app: AppProcess, path = '/health/ready'): Promise<Readiness | undefined> {
  const response = await fetch(`http://127.0.0.1:${app.port}${path}`, {
    signal: AbortSignal.timeout(5_000),
  }).catch(() => undefined);
  return response ? ((await response.json()) as Readiness) : undefined;
}

function alive(app: AppProcess): void {
  if (app.starts !== 1) throw new Error(`${app.app} was started ${app.starts} times`);
  const exited = app.output.find((line) => line.includes('"level":"fatal"'));
  if (exited) throw new Error(`${app.app} logged a fatal error: ${exited}`);
}

beforeAll(async () => {
  broker = await LocalBroker.start('it-broker-outage');
  // Every client of this file (the stack's topics, its command client, the apps) uses this broker.
  process.env.KAFKA_BROKERS = broker.address;
  stack = await TestStack.create('broker-outage');
  payoutsDb = await createTestDatabase('paygrid_payouts');
  gatewayDb = await createTestDatabase('paygrid_gateway');
  payouts = await AppProcess.on(stack, 'payouts', payoutsDb.url, { LOG_LEVEL: 'info' });
  gateway = await AppProcess.on(stack, 'gateway', gatewayDb.url, {
    LOG_LEVEL: 'info',
    COMMAND_TIMEOUT_MS: '2000',
  });
  await Promise.all([payouts.start(), gateway.start()]);
  client = await stack.commands();
  payoutsData = createDataSource({ url: payoutsDb.url, app: 'outage-check' });
  await payoutsData.initialize();
}, 240_000);

afterAll(async () => {
  await payouts?.stop();
  await gateway?.stop();
  await payoutsData?.destroy();
  await stack?.close().catch(() => undefined);
  await broker?.destroy();
  await payoutsDb?.drop();
  await gatewayDb?.drop();
  process.env.KAFKA_BROKERS = sharedBrokers;
});

describe('a broker outage', () => {
  it('heals by itself: consumers restart, readiness follows them, commands and events flow again', async () => {
    expect((await client.send('payouts', PING_COMMAND, {}, { actor: null })).ok).toBe(true);

    await broker.stop();
    // Down for as long as it takes every consumer to crash (readiness shows it), not a fixed time.
    for (const app of [payouts, gateway]) {
      const report = await waitFor(
        async () => {
          const ready = await readiness(app);
          return ready?.checks.consumers?.status === 'down' ? ready : undefined;
        },
        { timeoutMs: 90_000, intervalMs: 500, what: `${app.app}'s consumers to be down` },
      );
      expect(report.status).toBe('down');
      expect(report.checks.kafka.status).toBe('down');
    }
    // Written while the broker is away: the relay keeps retrying and publishes it afterwards.
    const pending = await appendToOutbox(payoutsData, {
      topic: EventTopics.payouts,
      event_name: 'payout.completed',
      event_type: 'PAYOUT',
      source_id: 'po_outage',
      account_id: 'acct_outage',
      master_account_id: 'acct_outage',
      data: { payout_id: 'po_outage' },
    });

    await broker.start();
    const back = Date.now();
    for (const app of [payouts, gateway]) {
      await waitFor(async () => (await readiness(app))?.status === 'up', {
        timeoutMs: 30_000,
        intervalMs: 250,
        what: `${app.app} to be ready again within 30 s of the broker's return`,
      });
    }
    // The gateway's aggregate pings payouts over the bus: its reply consumer and payouts' command consumer work.
    const aggregate = await waitFor(
      async () => {
        const report = await readiness(gateway, '/api/health');
        return report?.checks['service:payouts']?.status === 'up' ? report : undefined;
      },
      {
        timeoutMs: Math.max(1_000, 30_000 - (Date.now() - back)),
        intervalMs: 250,
        what: 'the gateway to reach payouts',
      },
    );
    expect(aggregate.checks.consumers.status).toBe('up');
    expect((await client.send('payouts', PING_COMMAND, {}, { actor: null })).ok).toBe(true);

    const reader = await stack.eventReader('payouts');
    await reader.until((event) => event.event_id === pending.event_id, {
      what: 'the outbox row written during the outage',
    });

    alive(payouts);
    alive(gateway);
    expect(payouts.output.join('\n')).toContain('kafka consumer');
  }, 240_000);
});
