import { DataSource } from 'typeorm';
import { createTestDatabase, NotificationListener, TestDatabase } from '@paygrid/testing';
import { appendToOutbox, OUTBOX_CHANNEL } from '../outbox/outbox-writer';
import {
  configureDeferredWakes,
  deferredWakePending,
  OUTBOX_DEFERRED_WAKE_MS,
} from '../outbox/deferred-wakes';
import { TracedPgClient } from '../tracing/pg-tracing';
import { createDataSource } from './data-source';
import { OneStatement, runAsOneStatement } from './one-statement';
import { outboxTestEvent } from '../outbox/outbox-test-event';

/**
 * runAsOneStatement against the real Postgres: a write and the events its build appended are one
 * statement sent alone (no BEGIN, no COMMIT); the events are written only when `eventsOnlyIf` holds; a
 * statement that fails writes neither; the build cannot run a query of its own; a deferred wake is kept in the process.
 */
const event = (sourceId: string, name: string) => outboxTestEvent(sourceId, name, 'acc-one-statement');

/** A keyed insert (nothing on a repeated key) whose events are written only with the row. */
function insertItem(id: string, amount: number): OneStatement {
  return {
    ctes: [
      'item AS (INSERT INTO one_statement_items (id, amount) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING *)',
    ],
    select: 'SELECT id, amount FROM item',
    params: [id, amount],
    eventsOnlyIf: 'EXISTS (SELECT 1 FROM item)',
  };
}

describe('a write as one statement with its events', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('one_statement');
    dataSource = createDataSource({ url: database.url, app: 'one-statement-test' });
    await dataSource.initialize();
    await dataSource.runMigrations();
    await dataSource.query(
      'CREATE TABLE one_statement_items (id text PRIMARY KEY, amount int NOT NULL CHECK (amount > 0))',
    );
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const eventsOf = async (sourceId: string) =>
    (
      (await dataSource.query(
        `SELECT payload::jsonb->>'event_name' AS name FROM outbox WHERE message_key = $1 ORDER BY id`,
        [sourceId],
      )) as {
        name: string;
      }[]
    ).map((row) => row.name);

  const itemCount = async (id: string) =>
    (
      (await dataSource.query('SELECT count(*)::int AS n FROM one_statement_items WHERE id = $1', [id])) as {
        n: number;
      }[]
    )[0].n;

  it('sends the write and its events as one statement, without BEGIN or COMMIT, and answers its rows', async () => {
    const sent = jest.spyOn(TracedPgClient.prototype, 'query');
    let rows: unknown;
    let texts: string[];
    try {
      rows = await runAsOneStatement(dataSource, async (events) => {
        await appendToOutbox(events, event('item-1', 'first'));
        await appendToOutbox(events, event('item-1', 'second'));
        return insertItem('item-1', 5);
      });
      texts = sent.mock.calls.map((call) => String(call[0]));
    } finally {
      sent.mockRestore();
    }
    // The write with its events, then the relay's wake-up behind it (outboxWakeOwed), pipelined on the
    // same connection: no BEGIN, no COMMIT, one round trip.
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('INSERT INTO outbox');
    expect(texts[1]).toBe('SELECT pg_notify($1, $2)');
    expect(rows).toEqual([{ id: 'item-1', amount: 5 }]);
    expect(await eventsOf('item-1')).toEqual(['first', 'second']);
  });

  it('writes no event when eventsOnlyIf does not hold (the keyed row already existed)', async () => {
    const rows = await runAsOneStatement(dataSource, async (events) => {
      await appendToOutbox(events, event('item-1', 'repeat'));
      return insertItem('item-1', 7);
    });
    expect(rows).toEqual([]);
    expect(await eventsOf('item-1')).toEqual(['first', 'second']);
  });

  it('writes neither the row nor its events when the statement fails', async () => {
    await expect(
      runAsOneStatement(dataSource, async (events) => {
        await appendToOutbox(events, event('item-refused', 'lost'));
        return insertItem('item-refused', -1);
      }),
    ).rejects.toThrow(/check constraint/);
    expect(await itemCount('item-refused')).toBe(0);
    expect(await eventsOf('item-refused')).toEqual([]);
  });

  it('refuses a query from the build, so nothing can run outside the statement', async () => {
    await expect(
      runAsOneStatement(dataSource, async (events) => {
        await events.query('INSERT INTO one_statement_items (id, amount) VALUES ($1, 1)', ['item-sneaked']);
        return insertItem('item-after', 1);
      }),
    ).rejects.toThrow(/runs no query of its own/);
    expect(await itemCount('item-sneaked')).toBe(0);
    expect(await itemCount('item-after')).toBe(0);
  });

  it("sends no wake-up for a deferred write, and the next plain one's covers it", async () => {
    // Far beyond this test: only the plain write's wake-up can end the wait here.
    configureDeferredWakes({ afterMs: 600_000 });
    const listener = await NotificationListener.start(database.url, OUTBOX_CHANNEL);
    try {
      await runAsOneStatement(
        dataSource,
        async (events) => {
          await appendToOutbox(events, event('item-deferred', 'deferred'));
          return insertItem('item-deferred', 1);
        },
        { deferWake: true },
      );
      expect(await listener.heardBeforeBarrier()).toEqual([]);
      expect(deferredWakePending(dataSource)).toBe(true);
      await runAsOneStatement(dataSource, async (events) => {
        await appendToOutbox(events, event('item-plain', 'plain'));
        return insertItem('item-plain', 1);
      });
      expect(deferredWakePending(dataSource)).toBe(false);
      expect(await listener.heardBeforeBarrier()).toEqual(['']);
    } finally {
      configureDeferredWakes({ afterMs: OUTBOX_DEFERRED_WAKE_MS });
      await listener.end();
    }
  });
});
