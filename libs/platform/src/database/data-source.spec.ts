import { createDataSource } from './data-source';
import { appDatabaseMigrations, PLATFORM_MIGRATIONS } from './app-migrations';
import { createAppDataSource } from './app-database';
import { DurableJobsTable1700000000100 } from '../jobs/durable-jobs.migration';
import { DEFAULT_POOL_IDLE_MS } from './pool-defaults';
import { commonConfig } from '../config/common-config';
import { loadConfig } from '../config/config';

/** What the pool is told: its options are read before any connection exists (no database needed). */
function poolOptions(dataSource: ReturnType<typeof createDataSource>): Record<string, unknown> {
  return (dataSource.options as { extra: Record<string, unknown> }).extra;
}

describe('createDataSource', () => {
  const url = 'postgres://postgres@127.0.0.1:5432/unused';

  it("keeps an idle pooled connection for five minutes, not node-postgres's ten seconds", () => {
    expect(DEFAULT_POOL_IDLE_MS).toBe(300_000);
    expect(poolOptions(createDataSource({ url, app: 'test' })).idleTimeoutMillis).toBe(300_000);
  });

  it('takes the idle time it is given', () => {
    expect(poolOptions(createDataSource({ url, app: 'test', poolIdleMs: 15_000 })).idleTimeoutMillis).toBe(
      15_000,
    );
  });
});

describe('DATABASE_POOL_IDLE_MS', () => {
  it('defaults to DEFAULT_POOL_IDLE_MS and refuses less than a second', () => {
    expect(loadConfig(commonConfig('acquiring'), {}).DATABASE_POOL_IDLE_MS).toBe(DEFAULT_POOL_IDLE_MS);
    expect(
      loadConfig(commonConfig('acquiring'), { DATABASE_POOL_IDLE_MS: '60000' }).DATABASE_POOL_IDLE_MS,
    ).toBe(60_000);
    expect(() => loadConfig(commonConfig('acquiring'), { DATABASE_POOL_IDLE_MS: '10' })).toThrow(
      /DATABASE_POOL_IDLE_MS/,
    );
  });
});

describe('the migrations of an app database', () => {
  const url = 'postgres://postgres@127.0.0.1:5432/unused';
  class AppTables1800000000000 {}
  const migrationsOf = (dataSource: ReturnType<typeof createDataSource>) => dataSource.options.migrations;

  it("runs the platform's tables, then the durable jobs' table when the app declares it, then the app's own", () => {
    const dataSource = createDataSource({
      url,
      app: 'test',
      durableJobs: true,
      migrations: [AppTables1800000000000],
    });
    expect(migrationsOf(dataSource)).toEqual([
      ...PLATFORM_MIGRATIONS,
      DurableJobsTable1700000000100,
      AppTables1800000000000,
    ]);
  });

  it("leaves the durable jobs' table out of an app that keeps no jobs", () => {
    const dataSource = createDataSource({ url, app: 'test', migrations: [AppTables1800000000000] });
    expect(migrationsOf(dataSource)).toEqual([...PLATFORM_MIGRATIONS, AppTables1800000000000]);
  });

  it("opens an app's database (boot's and npm run migrate's way) with the list its declaration gives", () => {
    const declaration = { durableJobs: true, migrations: [AppTables1800000000000] };
    const config = { DATABASE_URL: url };
    const dataSource = createAppDataSource({
      app: 'test',
      config,
      database: { ...declaration, poolSize: 20 },
    });
    expect(migrationsOf(dataSource)).toEqual(appDatabaseMigrations(declaration));
  });
});
