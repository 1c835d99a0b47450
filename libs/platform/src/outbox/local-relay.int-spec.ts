import { randomUUID } from 'node:crypto';
import { Client, QueryResult } from 'pg';
import { DataSource } from 'typeorm';
import { Producer } from 'kafkajs';
import pino from 'pino';
import { EventTopics } from '@paygrid/contracts';
import { createTestDatabase, NotificationListener, TestDatabase, testBrokers, TestStack, waitFor } from '@paygrid/testing';
import { createDataSource } from '../database/data-source';
import { createKafka, createProducer } from '../kafka/kafka-factory';
import { runInTransaction } from '../database/transaction-context';
import { appendToOutbox, OUTBOX_CHANNEL } from './outbox-writer';
import { beginRelayBatch, OutboxRelay } from './outbox-relay';
import { configureDeferredWakes, OUTBOX_DEFERRED_WAKE_MS } from './deferred-wakes';

/**
 * A commit of the process whose relay holds the lock wakes that relay in the process, without a NOTIFY
 * (local-relay.ts); a relay woken so that finds the lock taken forwards the wake-up as a NOTIFY, and a process
 * whose relay lost the lock notifies as before. Every relay here polls once an hour, so only a wake-up can
 * publish within a test, and the NOTIFYs are counted on a LISTEN connection of the test's, up to a barrier.
 */
const logger = pino({ level: 'warn' });
const quietLogger = { warn: () => undefined, error: () => undefined } as unknown as pino.Logger;

describe("the relay woken by its own process's commits", () => {
  let stack: TestStack;
  let database: TestDatabase;
  let dataSource: DataSource;
  let producer: Producer;
  let relay: OutboxRelay;
  let listener: NotificationListener;
  const published: string[] = [];

  beforeAll(async () => {
    stack = await TestStack.create('local-relay');
    database = await createTestDatabase('local_relay');
    dataSource = createDataSource({ url: database.url, app: 'local-relay-test' });
    await dataSource.initialize();
    await dataSource.runMigrations();
    await dataSource.query('CREATE TABLE guarded (id text PRIMARY KEY)');
    producer = createProducer(createKafka('local-relay-test', testBrokers(), logger));
    await producer.connect();
  });

  beforeEach(async () => {
    relay = new OutboxRelay(dataSource, producer, stack.names, database.url, logger, {
      pollIntervalMs: 3_600_000,
      afterPublish: async (eventIds) => void published.push(...eventIds),
    });
    await relay.start();
    // Its first read, at start, finds the lock free.
    await waitFor(() => relay.holdsLock(), { what: 'the relay holding the lock' });
    listener = await NotificationListener.start(database.url, OUTBOX_CHANNEL);
  });

  afterEach(async () => {
    await listener?.end();
    await relay?.stop();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await dataSource?.destroy();
    await database?.drop();
    await stack?.close();
  });

  /** One event committed through runInTransaction (its wake-up owed to the relay); its event id. */
  const commitEvent = (name: string) =>
    runInTransaction(dataSource, quietLogger, async (tx) => (await appendToOutbox(tx.manager, event(name))).event_id);

  it('publishes a commit of its process without any NOTIFY', async () => {
    const eventId = await commitEvent('local');
    await waitFor(() => published.includes(eventId), { what: 'the woken relay publishing' });
    expect(await listener.heardBeforeBarrier()).toEqual([]);
    expect(relay.holdsLock()).toBe(true);
  });

  it('forwards the wake-up as a NOTIFY when another holds the lock, and its process then notifies', async () => {
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    try {
      const results = (await holder.query(beginRelayBatch(1))) as unknown as QueryResult[];
      expect(results[2].rows).toEqual([{ acquired: true }]);

      const woken = await commitEvent('forwarded');
      // Not written behind the COMMIT: the relay lost the lock on its read, then told every relay.
      await waitFor(() => listener.heard.length === 1, { what: 'the forwarded wake-up' });
      expect(relay.holdsLock()).toBe(false);

      // The process's relay lost the lock: this commit notifies, and the relay that hears it forwards nothing.
      const notified = await commitEvent('notified');
      expect(await listener.heardBeforeBarrier()).toEqual(['', '']);
      expect(published).not.toContain(woken);
      expect(published).not.toContain(notified);

      await holder.query('ROLLBACK');
      const after = await commitEvent('after-release');
      await waitFor(() => [woken, notified, after].every((id) => published.includes(id)), {
        what: 'every row published once the lock is free',
      });
      expect(relay.holdsLock()).toBe(true);
    } finally {
      await holder.end();
    }
  });

  it("wakes it for a failed commit too, which had taken over the deferred writes' wake-up", async () => {
    // Far beyond this test: only the failed commit's wake-up can publish the deferred row here.
    configureDeferredWakes({ afterMs: 3_600_000 });
    try {
      const deferred = await runInTransaction(
        dataSource,
        quietLogger,
        async (tx) => (await appendToOutbox(tx.manager, event('deferred'))).event_id,
        { outbox: { deferWake: true } },
      );
      await dataSource.query("INSERT INTO guarded (id) VALUES ('taken')");
      await expect(
        runInTransaction(dataSource, quietLogger, async (tx) => {
          await appendToOutbox(tx.manager, event('rolled-back'));
          // Fails with COMMIT, after the wake-up was owed: the transaction rolls back.
          tx.finishWith({ sql: "INSERT INTO guarded (id) VALUES ('taken')", params: [] });
        }),
      ).rejects.toThrow(/duplicate key/);
      await waitFor(() => published.includes(deferred), { what: 'the deferred row published' });
      expect(await listener.heardBeforeBarrier()).toEqual([]);
    } finally {
      configureDeferredWakes({ afterMs: OUTBOX_DEFERRED_WAKE_MS });
    }
  });
});

function event(name: string) {
  return {
    topic: EventTopics.payouts,
    event_name: `test.${name}`,
    event_type: 'OPERATIONS' as const,
    source_id: `${name}-${randomUUID()}`,
    account_id: 'acct',
    master_account_id: 'acct',
    data: {},
  };
}
