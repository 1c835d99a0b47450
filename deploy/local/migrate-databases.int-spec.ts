import { randomBytes } from 'node:crypto';
import {
  APP_CATALOG,
  appDescriptor,
  AppName,
  createAppDataSource,
  databaseUrlFor,
  dropDatabase,
  DurableJobsTable1700000000100,
} from '@paygrid/platform';
import { appEnvironment, StackSettings } from './app-launcher';
import { appDatabaseOptions } from './app-migrations';
import { localDatabaseServerUrl, localKafkaBrokers, localRedisServerUrl } from './infrastructure';
import { localStackSettings } from './local-stack';
import { migrateAppDatabases, MigrationOutcome } from './migrate-databases';

/**
 * `npm run migrate` on the real Postgres, on databases of its own (`paygrid_<app>_mig_<random>`): every app's
 * database ends with exactly the migrations its app's DataSource declares, as the app's boot would leave it.
 */
describe('migrateAppDatabases', () => {
  const settings: StackSettings = {
    ...localStackSettings({}),
    databaseSuffix: `_mig_${randomBytes(4).toString('hex')}`,
    databaseServerUrl: localDatabaseServerUrl(),
    kafkaBrokers: localKafkaBrokers(),
    redisUrl: localRedisServerUrl(),
  };
  const log: string[] = [];
  let firstRun: MigrationOutcome[];

  /** What the app's own DataSource declares, and what its database's schema_migrations holds, in order. */
  async function migrationsOf(app: AppName): Promise<{ declared: string[]; recorded: string[] }> {
    const dataSource = createAppDataSource(
      appDatabaseOptions(app, appEnvironment(settings, appDescriptor(app))),
    );
    await dataSource.initialize();
    try {
      const declared = dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
      const rows: { name: string }[] = await dataSource.query(
        'SELECT name FROM schema_migrations ORDER BY id',
      );
      return { declared, recorded: rows.map((row) => row.name) };
    } finally {
      await dataSource.destroy();
    }
  }

  const appliedBy = (outcomes: MigrationOutcome[]) =>
    Object.fromEntries(
      outcomes.map((outcome) => [outcome.app, 'error' in outcome ? outcome.error : outcome.applied]),
    );

  beforeAll(async () => {
    firstRun = await migrateAppDatabases(settings, (line) => log.push(line));
  });

  afterAll(async () => {
    for (const app of APP_CATALOG) {
      await dropDatabase(
        databaseUrlFor(settings.databaseServerUrl, `${app.database}${settings.databaseSuffix}`),
      );
    }
  });

  it('creates the database of every app in the catalog', () => {
    expect(log).toEqual(
      APP_CATALOG.map((app) => `created database ${app.database}${settings.databaseSuffix}`),
    );
    expect(firstRun.map((outcome) => outcome.database)).toEqual(
      APP_CATALOG.map((app) => `${app.database}${settings.databaseSuffix}`),
    );
  });

  it("leaves every app's database with exactly the migrations its DataSource declares, in order", async () => {
    for (const app of APP_CATALOG) {
      const { declared, recorded } = await migrationsOf(app.name);
      expect({ app: app.name, recorded }).toEqual({ app: app.name, recorded: declared });
      expect({ app: app.name, applied: appliedBy(firstRun)[app.name] }).toEqual({
        app: app.name,
        applied: declared,
      });
    }
  });

  it('creates the durable jobs table in the databases of the apps that keep durable jobs, and only there', async () => {
    const withJobsTable: AppName[] = [];
    for (const app of APP_CATALOG) {
      if ((await migrationsOf(app.name)).recorded.includes(DurableJobsTable1700000000100.name))
        withJobsTable.push(app.name);
    }
    expect(withJobsTable.sort()).toEqual(['acquiring', 'issuing', 'payouts', 'webhook-dispatcher']);
  });

  it('applies nothing on a second run', async () => {
    const secondRun = await migrateAppDatabases(settings, () => undefined);
    expect(appliedBy(secondRun)).toEqual(Object.fromEntries(APP_CATALOG.map((app) => [app.name, []])));
  });

  it('reports an app whose configuration is invalid, naming the variable, and still migrates the others', async () => {
    const broken = { ...settings, extraEnv: { WEBHOOK_SECRETS_KEY: 'not-a-key' } };
    const outcomes = await migrateAppDatabases(broken, () => undefined);
    const dispatcher = outcomes.find((outcome) => outcome.app === 'webhook-dispatcher')!;
    expect('error' in dispatcher && dispatcher.error.message).toMatch(/WEBHOOK_SECRETS_KEY is invalid/);
    expect(outcomes.filter((outcome) => 'applied' in outcome).map((outcome) => outcome.app)).toEqual(
      APP_CATALOG.map((app) => app.name).filter((name) => name !== 'webhook-dispatcher'),
    );
  });
});
