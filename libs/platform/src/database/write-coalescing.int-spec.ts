import { Socket } from 'net';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { appendToOutbox } from '../outbox/outbox-writer';
import { outboxTestEvent } from '../outbox/outbox-test-event';
import { createDataSource } from './data-source';
import { runInTransaction } from './transaction-context';

/**
 * The pool's connections send the queries made in one tick as one socket write (write-coalescing.ts),
 * on the real Postgres through a pool of one connection. Writes are counted where the socket hands
 * its buffered chunks to the system: net.Socket's `_write` (one chunk) and `_writev` (several).
 */
const logger = { warn: () => undefined } as unknown as Logger;

function countSocketWrites() {
  const prototype = Socket.prototype as unknown as Record<
    '_write' | '_writev',
    (...args: unknown[]) => unknown
  >;
  let writes = 0;
  const spies = (['_write', '_writev'] as const).map((method) => {
    const original = prototype[method];
    return jest.spyOn(prototype, method).mockImplementation(function (this: Socket, ...args: unknown[]) {
      writes += 1;
      return original.apply(this, args);
    });
  });
  return { writes: () => writes, restore: () => spies.forEach((spy) => spy.mockRestore()) };
}

describe('one socket write per tick', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('write_coalescing');
    dataSource = createDataSource({ url: database.url, app: 'write-coalescing-test', poolSize: 1 });
    await dataSource.initialize();
    await dataSource.runMigrations();
    await dataSource.query('CREATE TABLE coalesced_items (id text PRIMARY KEY)');
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('writes a transaction as two writes: BEGIN with its statement, the events with COMMIT', async () => {
    const socket = countSocketWrites();
    try {
      await runInTransaction(dataSource, logger, async (tx) => {
        await tx.manager.query('INSERT INTO coalesced_items (id) VALUES ($1)', ['a']);
        await appendToOutbox(tx.manager, outboxTestEvent('a', 'item.created', 'acc-coalesced'));
      });
    } finally {
      socket.restore();
    }
    // Four queries (BEGIN, INSERT, the events' statement, COMMIT): four writes without coalescing.
    expect(socket.writes()).toBe(2);
    expect(await dataSource.query('SELECT id FROM coalesced_items WHERE id = $1', ['a'])).toEqual([
      { id: 'a' },
    ]);
  });

  it('still answers each query of a shared write on its own: one failing leaves the others applied', async () => {
    // One connection, three queries made in one tick, each its own implicit transaction.
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    const socket = countSocketWrites();
    let outcomes: PromiseSettledResult<unknown>[];
    try {
      outcomes = await Promise.allSettled([
        runner.query('INSERT INTO coalesced_items (id) VALUES ($1)', ['b']),
        runner.query('INSERT INTO coalesced_items (id) VALUES ($1)', ['b']),
        runner.query('INSERT INTO coalesced_items (id) VALUES ($1)', ['c']),
      ]);
    } finally {
      socket.restore();
      await runner.release();
    }
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ driverError: { code: '23505' } });
    expect(socket.writes()).toBe(1);
    expect(
      await dataSource.query(`SELECT id FROM coalesced_items WHERE id IN ('b', 'c') ORDER BY id`),
    ).toEqual([{ id: 'b' }, { id: 'c' }]);
  });
});
