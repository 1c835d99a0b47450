import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { createDataSource } from './data-source';

/**
 * Prepared statements against the real Postgres, on a pool of one connection so every query meets the
 * same backend: parameterised queries become named statements the backend keeps, and a migration that
 * changes the columns of a `RETURNING *` costs that statement one failure, not the connection's life.
 */
describe('prepared statements', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('prepared');
    dataSource = createDataSource({ url: database.url, app: 'prepared-test', poolSize: 1 });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE things (id text PRIMARY KEY, size int NOT NULL)');
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const preparedTexts = async (): Promise<string[]> =>
    (await dataSource.query('SELECT statement FROM pg_prepared_statements ORDER BY statement')).map(
      (row: { statement: string }) => row.statement,
    );

  it('prepares a parameterised query once on the connection and answers as before', async () => {
    const insert = 'INSERT INTO things (id, size) VALUES ($1, $2) RETURNING *';
    expect(await dataSource.query(insert, ['a', 1])).toEqual([{ id: 'a', size: 1 }]);
    expect(await dataSource.query(insert, ['b', 2])).toEqual([{ id: 'b', size: 2 }]);
    const texts = await preparedTexts();
    expect(texts.filter((text) => text === insert)).toHaveLength(1);
    // Without parameters: the simple protocol, nothing prepared.
    expect(texts).not.toContain('SELECT statement FROM pg_prepared_statements ORDER BY statement');
  });

  it('fails a RETURNING * once after its table gained a column, then prepares it afresh', async () => {
    const insert = 'INSERT INTO things (id, size) VALUES ($1, $2) RETURNING *';
    await dataSource.query('ALTER TABLE things ADD COLUMN colour text');
    await expect(dataSource.query(insert, ['c', 3])).rejects.toThrow('cached plan must not change result type');
    expect(await dataSource.query(insert, ['d', 4])).toEqual([{ id: 'd', size: 4, colour: null }]);
    const [{ count }] = await dataSource.query('SELECT count(*)::int AS count FROM things');
    expect(count).toBe(3);
  });

  it('sends unnamed statements when switched off', async () => {
    const unprepared = createDataSource({
      url: database.url,
      app: 'prepared-off',
      poolSize: 1,
      preparedStatements: false,
    });
    await unprepared.initialize();
    try {
      await unprepared.query('SELECT size FROM things WHERE id = $1', ['a']);
      const [{ count }] = await unprepared.query('SELECT count(*)::int AS count FROM pg_prepared_statements');
      expect(count).toBe(0);
    } finally {
      await unprepared.destroy();
    }
  });
});
