import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import { createTestDatabase, TestDatabase, watchPgRoundTrips } from '@paygrid/testing';
import { appendToOutbox } from '../outbox/outbox-writer';
import { createDataSource } from './data-source';
import {
  GENERIC_PLANS,
  runInTransaction,
  transactionEndingWith,
  transactionWithSettings,
} from './transaction-context';
import { outboxTestEvent } from '../outbox/outbox-test-event';

/**
 * Transactions whose BEGIN and COMMIT ride with their statements, on the real Postgres through a pool of
 * one connection (so whatever a transaction leaves on its connection is what the next one gets).
 *
 * Round trips are read off the driver: every query the connection is given is logged when it is sent
 * and when it is answered. A round trip is a run of sends with no answer between them: a query sent
 * before the previous one was answered travelled with it.
 */
const logger = { warn: () => undefined } as unknown as Logger;

const event = (sourceId: string, name: string) => outboxTestEvent(sourceId, name, 'acc-pipelined');

/** The relay's wake-up, written right behind COMMIT when the transaction wrote events (outbox-writer.ts). */
const WAKE = 'SELECT pg_notify($1,';

describe('pipelined transactions', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('pipelined_tx');
    dataSource = createDataSource({ url: database.url, app: 'pipelined-tx-test', poolSize: 1 });
    await dataSource.initialize();
    await dataSource.runMigrations();
    await dataSource.query('CREATE TABLE pipelined_items (id text PRIMARY KEY)');
    await dataSource.query('CREATE TABLE pipelined_claims (id text PRIMARY KEY)');
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const items = async (id: string) =>
    (await dataSource.query('SELECT id FROM pipelined_items WHERE id = $1', [id])) as { id: string }[];
  const eventsOf = async (sourceId: string) =>
    (
      (await dataSource.query(
        `SELECT payload::jsonb->>'event_name' AS name FROM outbox WHERE message_key = $1 ORDER BY id`,
        [sourceId],
      )) as { name: string }[]
    ).map((row) => row.name);
  const connectionIsClean = async () =>
    expect(await dataSource.query(`SELECT 1 AS one`)).toEqual([{ one: 1 }]);

  it("sends BEGIN with the first statement and the events with COMMIT (the relay's wake-up behind it): two round trips for one statement", async () => {
    const driver = watchPgRoundTrips();
    try {
      await runInTransaction(dataSource, logger, async (tx) => {
        await tx.manager.query('INSERT INTO pipelined_items (id) VALUES ($1)', ['a']);
        await appendToOutbox(tx.manager, event('a', 'item.created'));
      });
    } finally {
      driver.restore();
    }
    expect(driver.texts()).toEqual(['START TRANSACTION', 'INSERT INTO', 'INSERT INTO', 'COMMIT', WAKE]);
    expect(driver.roundTrips()).toBe(2);
    expect(await items('a')).toEqual([{ id: 'a' }]);
    expect(await eventsOf('a')).toEqual(['item.created']);
  });

  it('sends the last statement with the events and COMMIT, and then starts the after-commit hooks', async () => {
    const driver = watchPgRoundTrips();
    const hooks: string[] = [];
    try {
      await runInTransaction(dataSource, logger, async (tx) => {
        await tx.manager.query('INSERT INTO pipelined_items (id) VALUES ($1)', ['b']);
        await appendToOutbox(tx.manager, event('b', 'item.created'));
        tx.afterCommit(() => hooks.push('committed'));
        tx.finishWith({ sql: 'INSERT INTO pipelined_claims (id) VALUES ($1)', params: ['b'] });
      });
    } finally {
      driver.restore();
    }
    expect(driver.texts()).toEqual([
      'START TRANSACTION',
      'INSERT INTO',
      'WITH appended_events',
      'COMMIT',
      WAKE,
    ]);
    expect(driver.roundTrips()).toBe(2);
    expect(hooks).toEqual(['committed']);
    expect(await eventsOf('b')).toEqual(['item.created']);
    expect(await dataSource.query('SELECT id FROM pipelined_claims WHERE id = $1', ['b'])).toEqual([
      { id: 'b' },
    ]);
  });

  it('rolls back the work and its events when the last statement fails, answers its error and runs no hook', async () => {
    await dataSource.query('INSERT INTO pipelined_claims (id) VALUES ($1)', ['taken']);
    const hooks: string[] = [];
    await expect(
      runInTransaction(dataSource, logger, async (tx) => {
        await tx.manager.query('INSERT INTO pipelined_items (id) VALUES ($1)', ['c']);
        await appendToOutbox(tx.manager, event('c', 'item.created'));
        tx.afterCommit(() => hooks.push('committed'));
        // Postgres answers this one's COMMIT with ROLLBACK, not an error: the statement's answer says it.
        tx.finishWith({ sql: 'INSERT INTO pipelined_claims (id) VALUES ($1)', params: ['taken'] });
      }),
    ).rejects.toMatchObject({
      driverError: expect.objectContaining({ code: '23505', constraint: 'pipelined_claims_pkey' }),
    });
    expect(hooks).toEqual([]);
    expect(await items('c')).toEqual([]);
    expect(await eventsOf('c')).toEqual([]);
    await connectionIsClean();
  });

  it("rolls back when the work's statement fails, answering that statement's error", async () => {
    await expect(
      runInTransaction(dataSource, logger, async (tx) => {
        await tx.manager.query('INSERT INTO pipelined_items (id) VALUES ($1)', ['d']);
        await appendToOutbox(tx.manager, event('d', 'item.created'));
        await tx.manager.query('INSERT INTO pipelined_items (id) VALUES ($1)', ['d']);
      }),
    ).rejects.toThrow(/pipelined_items_pkey/);
    expect(await items('d')).toEqual([]);
    expect(await eventsOf('d')).toEqual([]);
    await connectionIsClean();
  });

  it('keeps a nested manager.transaction a savepoint of the open transaction', async () => {
    await runInTransaction(dataSource, logger, async (tx) => {
      await tx.manager.query('INSERT INTO pipelined_items (id) VALUES ($1)', ['outer']);
      await expect(
        tx.manager.transaction(async (inner) => {
          await inner.query('INSERT INTO pipelined_items (id) VALUES ($1)', ['inner']);
          throw new Error('inner refused');
        }),
      ).rejects.toThrow('inner refused');
    });
    expect(await items('outer')).toEqual([{ id: 'outer' }]);
    expect(await items('inner')).toEqual([]);
  });

  it('refuses a second last statement, rolling the work back', async () => {
    await expect(
      runInTransaction(dataSource, logger, async (tx) => {
        await tx.manager.query('INSERT INTO pipelined_items (id) VALUES ($1)', ['e']);
        tx.finishWith({ sql: 'SELECT 1', params: [] });
        tx.finishWith({ sql: 'SELECT 2', params: [] });
      }),
    ).rejects.toThrow(/finishWith was called twice/);
    expect(await items('e')).toEqual([]);
  });

  it('sends a write it does not wait for with the next statement it does', async () => {
    const driver = watchPgRoundTrips();
    try {
      await runInTransaction(dataSource, logger, async (tx) => {
        tx.send({ sql: 'INSERT INTO pipelined_items (id) VALUES ($1)', params: ['g1'] });
        await tx.manager.query('INSERT INTO pipelined_items (id) VALUES ($1)', ['g2']);
      });
    } finally {
      driver.restore();
    }
    expect(driver.texts()).toEqual(['START TRANSACTION', 'INSERT INTO', 'INSERT INTO', 'COMMIT']);
    expect(driver.roundTrips()).toBe(2);
    expect([...(await items('g1')), ...(await items('g2'))]).toEqual([{ id: 'g1' }, { id: 'g2' }]);
  });

  it("answers a sent write's rows with COMMIT, and nothing when the write fails the transaction", async () => {
    const driver = watchPgRoundTrips();
    let answered: Promise<unknown[] | undefined> | undefined;
    try {
      await runInTransaction(dataSource, logger, async (tx) => {
        await tx.manager.query('INSERT INTO pipelined_items (id) VALUES ($1)', ['r1']);
        answered = tx.sendReading({
          sql: 'INSERT INTO pipelined_items (id) VALUES ($1) RETURNING id',
          params: ['r2'],
        });
      });
    } finally {
      driver.restore();
    }
    expect(driver.texts()).toEqual(['START TRANSACTION', 'INSERT INTO', 'INSERT INTO', 'COMMIT']);
    expect(driver.roundTrips()).toBe(2);
    await expect(answered).resolves.toEqual([{ id: 'r2' }]);

    let refused: Promise<unknown[] | undefined> | undefined;
    await expect(
      runInTransaction(dataSource, logger, async (tx) => {
        await tx.manager.query('INSERT INTO pipelined_items (id) VALUES ($1)', ['r3']);
        refused = tx.sendReading({
          sql: 'INSERT INTO pipelined_items (id) VALUES ($1) RETURNING id',
          params: ['r2'],
        });
      }),
    ).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '23505' }) });
    // The transaction reports the failure; the answer itself never rejects (no rejection left unhandled).
    await expect(refused).resolves.toBeUndefined();
    expect(await items('r3')).toEqual([]);
    await connectionIsClean();
  });

  it("fails the transaction with a sent write's own error, not the next statement's", async () => {
    await dataSource.query('INSERT INTO pipelined_items (id) VALUES ($1)', ['h-taken']);
    await expect(
      runInTransaction(dataSource, logger, async (tx) => {
        await tx.manager.query('INSERT INTO pipelined_items (id) VALUES ($1)', ['h']);
        tx.send({ sql: 'INSERT INTO pipelined_items (id) VALUES ($1)', params: ['h-taken'] });
        // Postgres refuses this one as "current transaction is aborted": the cause is the write before it.
        await tx.manager.query('SELECT 1');
      }),
    ).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '23505' }) });
    expect(await items('h')).toEqual([]);
    await connectionIsClean();
  });

  it('sends transactionWithSettings’ BEGIN and settings with its first statement', async () => {
    const driver = watchPgRoundTrips();
    let mode: unknown;
    try {
      mode = await transactionWithSettings(
        dataSource,
        ['SET LOCAL plan_cache_mode = force_generic_plan'],
        async (manager) => {
          await manager.query('INSERT INTO pipelined_items (id) VALUES ($1)', ['f']);
          return (await manager.query(`SELECT current_setting('plan_cache_mode') AS mode`))[0].mode;
        },
      );
    } finally {
      driver.restore();
    }
    expect(mode).toBe('force_generic_plan');
    // BEGIN with the insert, the read, COMMIT: three round trips for two statements (was four).
    expect(driver.roundTrips()).toBe(3);
    expect(await items('f')).toEqual([{ id: 'f' }]);
  });

  it("runs runInTransaction's work under its settings, written with BEGIN, and ends them with the transaction", async () => {
    const planCacheMode = async (executor: Pick<DataSource, 'query'>) =>
      (await executor.query(`SELECT current_setting('plan_cache_mode') AS mode`))[0].mode as string;
    const driver = watchPgRoundTrips();
    let mode: string | undefined;
    try {
      await runInTransaction(
        dataSource,
        logger,
        async (tx) => {
          mode = await planCacheMode(tx.manager);
          tx.finishWith({ sql: 'INSERT INTO pipelined_items (id) VALUES ($1)', params: ['g'] });
        },
        { settings: [GENERIC_PLANS] },
      );
    } finally {
      driver.restore();
    }
    expect(mode).toBe('force_generic_plan');
    expect(driver.texts()[0]).toMatch(/^START TRANSACTION/);
    // BEGIN and the setting with the read, the last statement with COMMIT.
    expect(driver.roundTrips()).toBe(2);
    expect(await items('g')).toEqual([{ id: 'g' }]);
    expect(await planCacheMode(dataSource)).toBe('auto');
  });

  it('writes transactionEndingWith’s BEGIN, settings, last statement and COMMIT in one round trip, and reads its rows', async () => {
    const driver = watchPgRoundTrips();
    let inserted: string[];
    try {
      inserted = await transactionEndingWith(dataSource, [GENERIC_PLANS], async () => ({
        last: {
          sql: 'INSERT INTO pipelined_items (id) SELECT unnest($1::text[]) RETURNING id',
          params: [['h1', 'h2']],
        },
        read: (rows: { id: string }[]) => rows.map((row) => row.id).sort(),
      }));
    } finally {
      driver.restore();
    }
    expect(inserted).toEqual(['h1', 'h2']);
    expect(driver.roundTrips()).toBe(1);
    expect(await items('h2')).toEqual([{ id: 'h2' }]);
    await connectionIsClean();
  });
});
