import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { createAppDataSource, migrateUnderLock } from './app-database';

/**
 * migrateUnderLock on the real Postgres: two processes opening one fresh database at once (two replicas
 * booting, or a boot beside `npm run migrate`) must not both try to create its tables.
 */
describe('migrateUnderLock', () => {
  let database: TestDatabase;
  const opened: DataSource[] = [];

  const open = async (): Promise<DataSource> => {
    const dataSource = createAppDataSource({
      app: 'migrate-lock-test',
      config: { DATABASE_URL: database.url },
      database: { durableJobs: true, migrations: [] },
    });
    await dataSource.initialize();
    opened.push(dataSource);
    return dataSource;
  };
  const declaredNames = (dataSource: DataSource) =>
    dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);

  beforeAll(async () => {
    database = await createTestDatabase('migrate_lock');
  });

  afterAll(async () => {
    await Promise.all(opened.map((dataSource) => dataSource.destroy()));
    await database?.drop();
  });

  it('lets one of two processes migrating a fresh database at once apply everything, and the other nothing', async () => {
    const [first, second] = await Promise.all([open(), open()]);
    const [appliedByFirst, appliedBySecond] = await Promise.all([
      migrateUnderLock(first),
      migrateUnderLock(second),
    ]);

    expect([appliedByFirst, appliedBySecond].map((applied) => applied.length).sort()).toEqual([
      0,
      declaredNames(first).length,
    ]);
    const rows: { name: string }[] = await first.query('SELECT name FROM schema_migrations ORDER BY id');
    expect(rows.map((row) => row.name)).toEqual(declaredNames(first));
  });

  it('applies nothing to a database already migrated', async () => {
    expect(await migrateUnderLock(await open())).toEqual([]);
  });
});
