import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { createDataSource } from './data-source';
import { transactionWithSettings } from './transaction-context';

/**
 * transactionWithSettings on the real Postgres, through a pool of one connection, so that what the
 * transaction leaves behind on its connection is what the next user of the pool gets.
 */
describe('transactionWithSettings', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const GENERIC = 'SET LOCAL plan_cache_mode = force_generic_plan';
  const planCacheMode = async (executor: Pick<DataSource, 'query'>) =>
    (await executor.query(`SELECT current_setting('plan_cache_mode') AS mode`))[0].mode;

  beforeAll(async () => {
    database = await createTestDatabase('tx_settings');
    dataSource = createDataSource({ url: database.url, app: 'tx-settings-test', poolSize: 1 });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE items (id int PRIMARY KEY)');
    await dataSource.query(
      `CREATE TABLE checked (id int PRIMARY KEY,
         CONSTRAINT never_seven CHECK (id <> 7) NOT VALID)`,
    );
    await dataSource.query(
      `CREATE TABLE deferred_refs (id int REFERENCES items (id) DEFERRABLE INITIALLY DEFERRED)`,
    );
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('runs the work under its settings and commits it; the settings end with the transaction', async () => {
    const inside = await transactionWithSettings(dataSource, [GENERIC], async (manager) => {
      await manager.query('INSERT INTO items (id) VALUES (1)');
      return planCacheMode(manager);
    });
    expect(inside).toBe('force_generic_plan');
    expect(await planCacheMode(dataSource)).toBe('auto');
    expect(await dataSource.query('SELECT id FROM items WHERE id = 1')).toEqual([{ id: 1 }]);
  });

  it('rolls the work back when it throws, leaving the connection clean', async () => {
    await expect(
      transactionWithSettings(dataSource, [GENERIC], async (manager) => {
        await manager.query('INSERT INTO items (id) VALUES (2)');
        throw new Error('refused on purpose');
      }),
    ).rejects.toThrow('refused on purpose');
    expect(await dataSource.query('SELECT id FROM items WHERE id = 2')).toEqual([]);
    expect(await planCacheMode(dataSource)).toBe('auto');
    await expect(
      transactionWithSettings(dataSource, [], async (manager) => manager.query('SELECT 1 AS one')),
    ).resolves.toEqual([{ one: 1 }]);
  });

  it('rolls back a transaction whose setting fails, so the pooled connection is not left in it', async () => {
    await expect(
      transactionWithSettings(
        dataSource,
        ['SET LOCAL plan_cache_mode = no_such_mode'],
        async () => 'never run',
      ),
    ).rejects.toThrow(/plan_cache_mode/);
    // With the transaction left open (aborted), every later query on the one connection would fail.
    expect(await dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(await planCacheMode(dataSource)).toBe('auto');
  });

  it('rejects with the error of a failed statement or a failed COMMIT, and commits nothing', async () => {
    await expect(
      transactionWithSettings(dataSource, [GENERIC], async (manager) => {
        await manager.query('INSERT INTO items (id) VALUES (3)');
        await manager.query('INSERT INTO checked (id) VALUES (7)');
      }),
    ).rejects.toThrow(/never_seven/);
    // A deferred foreign key is checked at COMMIT: that COMMIT fails and ends the transaction itself.
    await expect(
      transactionWithSettings(dataSource, [GENERIC], async (manager) => {
        await manager.query('INSERT INTO items (id) VALUES (4)');
        await manager.query('INSERT INTO deferred_refs (id) VALUES (404)');
      }),
    ).rejects.toThrow(/deferred_refs/);
    expect(await dataSource.query('SELECT id FROM items WHERE id IN (3, 4)')).toEqual([]);
    expect(await planCacheMode(dataSource)).toBe('auto');
  });
});
