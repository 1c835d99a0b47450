import { DataSource } from 'typeorm';
import pino from 'pino';
import { createTestDatabase, NotificationListener, TestDatabase, waitFor } from '@paygrid/testing';
import { createDataSource } from '../database/data-source';
import { runInTransaction } from '../database/transaction-context';
import { appendToOutbox, flushOutboxWith, OUTBOX_CHANNEL } from './outbox-writer';
import { configureDeferredWakes, deferredWakePending, OUTBOX_DEFERRED_WAKE_MS } from './deferred-wakes';
import { outboxTestEvent } from './outbox-test-event';

/**
 * The outbox writer against the real Postgres: inside runInTransaction a transaction's events are
 * written by one statement at its end, in the order they were appended; a rolled-back transaction
 * writes none; outside one, an event is written at once; flushOutboxWith writes them with another
 * statement (the command ledger's row), in one round trip; a transaction whose wake is deferred sends
 * none: the next plain commit's covers it, or the process sends one a moment later.
 */
const logger = pino({ level: 'silent' });

const event = (sourceId: string, name: string) => outboxTestEvent(sourceId, name, 'acc-outbox-writer');

describe('outbox writer', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('outbox_writer');
    dataSource = createDataSource({ url: database.url, app: 'outbox-writer-test' });
    await dataSource.initialize();
    await dataSource.runMigrations();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const rowsOf = async (sourceId: string) =>
    (await dataSource.query(
      `SELECT event_id, payload::jsonb->>'event_name' AS name FROM outbox WHERE message_key = $1 ORDER BY id`,
      [sourceId],
    )) as { event_id: string; name: string }[];

  it("writes a transaction's events at its end, in append order, with the ids it returned", async () => {
    const names = ['first', 'second', 'third', 'fourth'];
    const appended = await runInTransaction(dataSource, logger, async (tx) => {
      const envelopes = [];
      for (const name of names) envelopes.push(await appendToOutbox(tx.manager, event('batched', name)));
      // Not written yet: the transaction's own session sees no row until its end.
      const [{ n }] = await tx.manager.query(
        `SELECT count(*)::int AS n FROM outbox WHERE message_key = 'batched'`,
      );
      expect(n).toBe(0);
      return envelopes;
    });
    const rows = await rowsOf('batched');
    expect(rows.map((row) => row.name)).toEqual(names);
    expect(rows.map((row) => row.event_id)).toEqual(appended.map((envelope) => envelope.event_id));
  });

  it('writes nothing for a transaction that rolls back', async () => {
    await expect(
      runInTransaction(dataSource, logger, async (tx) => {
        await appendToOutbox(tx.manager, event('rolled-back', 'lost'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await rowsOf('rolled-back')).toEqual([]);
  });

  it('writes at once outside runInTransaction, and one event of a transaction alone', async () => {
    await appendToOutbox(dataSource, event('bare', 'immediate'));
    expect((await rowsOf('bare')).map((row) => row.name)).toEqual(['immediate']);
    await runInTransaction(dataSource, logger, (tx) => appendToOutbox(tx.manager, event('single', 'only')));
    expect((await rowsOf('single')).map((row) => row.name)).toEqual(['only']);
  });

  it('writes the buffered events with a companion statement, whose result it returns, and keeps buffering after', async () => {
    await dataSource.query('CREATE TABLE IF NOT EXISTS companion (id text PRIMARY KEY)');
    const statements: string[] = [];
    const returned = await runInTransaction(dataSource, logger, async (tx) => {
      await appendToOutbox(tx.manager, event('companion', 'first'));
      await appendToOutbox(tx.manager, event('companion', 'second'));
      const query = tx.manager.query.bind(tx.manager);
      tx.manager.query = ((sql: string, params?: unknown[]) => {
        statements.push(sql);
        return query(sql, params);
      }) as typeof tx.manager.query;
      const result = await flushOutboxWith(tx.manager, {
        sql: 'INSERT INTO companion (id) VALUES ($1) RETURNING id',
        params: ['c-1'],
      });
      await appendToOutbox(tx.manager, event('companion', 'third'));
      return result;
    });
    expect(returned).toEqual([{ id: 'c-1' }]);
    // The companion with the first two events; the third is written by the closing statement, sent with COMMIT.
    expect(statements).toHaveLength(1);
    expect((await rowsOf('companion')).map((row) => row.name)).toEqual(['first', 'second', 'third']);
    await expect(
      runInTransaction(dataSource, logger, async (tx) => {
        await appendToOutbox(tx.manager, event('companion-lost', 'lost'));
        await flushOutboxWith(tx.manager, { sql: 'INSERT INTO companion (id) VALUES ($1)', params: ['c-2'] });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await rowsOf('companion-lost')).toEqual([]);
  });

  it('leaves the notification to the committer: no NOTIFY inside the transaction, one right after its commit', async () => {
    // A NOTIFY inside a transaction holds a per-database lock through its commit's WAL flush, which
    // serialises every notifying commit (outbox-wake-after-commit.migration.ts).
    await dataSource.query('CREATE TABLE IF NOT EXISTS companion (id text PRIMARY KEY)');
    const listener = await NotificationListener.start(database.url, OUTBOX_CHANNEL);
    try {
      const setting = await runInTransaction(dataSource, logger, async (tx) => {
        await appendToOutbox(tx.manager, event('after-commit', 'first'));
        await flushOutboxWith(tx.manager, {
          sql: 'INSERT INTO companion (id) VALUES ($1)',
          params: ['c-after'],
        });
        const [{ wake }] = await tx.manager.query(
          `SELECT current_setting('paygrid.outbox_wake', true) AS wake`,
        );
        return wake as string;
      });
      // The buffered insert told the trigger to stay silent...
      expect(setting).toBe('after_commit');
      // ...and so it does, for any insert under that setting: only what is sent after a commit is heard.
      const runner = dataSource.createQueryRunner();
      try {
        await runner.startTransaction();
        await runner.query(`SELECT set_config('paygrid.outbox_wake', 'after_commit', true)`);
        await runner.query(
          `INSERT INTO outbox (event_id, topic, message_key, payload) VALUES (gen_random_uuid()::text, 'paygrid.test', 'silent', '{}')`,
        );
        await runner.commitTransaction();
      } finally {
        await runner.release();
      }
      expect(await listener.heardBeforeBarrier()).toEqual(['']);
      expect((await rowsOf('after-commit')).map((row) => row.name)).toEqual(['first']);
    } finally {
      await listener.end();
    }
  });

  const deferredWakeTransaction = (work: Parameters<typeof runInTransaction>[2]) =>
    runInTransaction(dataSource, logger, work, { outbox: { deferWake: true } });

  it("keeps a deferred-wake transaction's wake-up in the process: the next plain commit's covers it", async () => {
    // Far beyond this test: only a plain wake-up can end the wait here.
    configureDeferredWakes({ afterMs: 600_000 });
    await dataSource.query('CREATE TABLE IF NOT EXISTS companion (id text PRIMARY KEY)');
    const listener = await NotificationListener.start(database.url, OUTBOX_CHANNEL);
    try {
      await deferredWakeTransaction((tx) => appendToOutbox(tx.manager, event('deferred', 'first')));
      // Written with a companion statement (flushOutboxWith), a deferred transaction's events are deferred too.
      await deferredWakeTransaction(async (tx) => {
        await appendToOutbox(tx.manager, event('deferred', 'second'));
        await flushOutboxWith(tx.manager, {
          sql: 'INSERT INTO companion (id) VALUES ($1)',
          params: ['c-deferred'],
        });
      });
      expect(deferredWakePending(dataSource)).toBe(true);
      expect(await listener.heardBeforeBarrier()).toEqual([]);
      await runInTransaction(dataSource, logger, (tx) =>
        appendToOutbox(tx.manager, event('deferred', 'third')),
      );
      expect(deferredWakePending(dataSource)).toBe(false);
      expect(await listener.heardBeforeBarrier()).toEqual(['']);
      expect((await rowsOf('deferred')).map((row) => row.name)).toEqual(['first', 'second', 'third']);
    } finally {
      configureDeferredWakes({ afterMs: OUTBOX_DEFERRED_WAKE_MS });
      await listener.end();
    }
  });

  it('wakes the relay itself when no plain commit follows a deferred one', async () => {
    configureDeferredWakes({ afterMs: 0 });
    const listener = await NotificationListener.start(database.url, OUTBOX_CHANNEL);
    try {
      await deferredWakeTransaction((tx) => appendToOutbox(tx.manager, event('deferred-alone', 'only')));
      await waitFor(() => listener.heard.includes(''), { what: "the deferred write's own wake-up" });
      expect(deferredWakePending(dataSource)).toBe(false);
    } finally {
      configureDeferredWakes({ afterMs: OUTBOX_DEFERRED_WAKE_MS });
      await listener.end();
    }
  });
});
