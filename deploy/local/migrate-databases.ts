import { APP_CATALOG, AppName, createAppDataSource, migrateUnderLock } from '@paygrid/platform';
import { appEnvironment, StackSettings } from './app-launcher';
import { appDatabaseOptions } from './app-migrations';
import { provideDatabases } from './infrastructure';

/**
 * `npm run migrate` without the process around it: every app's database brought to the schema its app
 * would reach at boot, without starting the app. Each database is created when missing, opened from the
 * app's config as the launcher would give it (appEnvironment) and migrated by the platform's own
 * `createAppDataSource` + `migrateUnderLock`, so a replica booting meanwhile waits instead of racing.
 * Postgres is all it touches.
 */
export type MigrationOutcome =
  { app: AppName; database: string; applied: string[] } | { app: AppName; database: string; error: Error };

export async function migrateAppDatabases(
  settings: StackSettings,
  log: (line: string) => void,
): Promise<MigrationOutcome[]> {
  await provideDatabases(settings.databaseServerUrl, settings.databaseSuffix, log);
  const outcomes: MigrationOutcome[] = [];
  // One app after another: an app's failure (a bad config value, a migration that throws) is reported and
  // does not keep the others' databases behind, since each is independent of the rest.
  for (const app of APP_CATALOG) {
    const database = `${app.database}${settings.databaseSuffix}`;
    try {
      const applied = await migrateOne(appEnvironment(settings, app), app.name);
      outcomes.push({ app: app.name, database, applied });
    } catch (error) {
      outcomes.push({
        app: app.name,
        database,
        error: error instanceof Error ? error : new Error(String(error)),
      });
    }
  }
  return outcomes;
}

async function migrateOne(env: NodeJS.ProcessEnv, app: AppName): Promise<string[]> {
  const dataSource = createAppDataSource(appDatabaseOptions(app, env));
  try {
    await dataSource.initialize();
    return await migrateUnderLock(dataSource);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}

/** One line per app: `accounts: 2 migrations applied`, `accounts: up to date`, or why it failed. */
export function describeOutcome(outcome: MigrationOutcome): string {
  if ('error' in outcome) return `${outcome.app}: failed: ${reasonOf(outcome.error)}`;
  const count = outcome.applied.length;
  if (count === 0) return `${outcome.app}: up to date`;
  return `${outcome.app}: ${count} migration${count === 1 ? '' : 's'} applied`;
}

/** node-postgres reports a refused connection to several addresses as an AggregateError with no message. */
export function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && !error.message) return error.errors.map(reasonOf).join('; ');
  if (error instanceof Error) return error.message || (error as { code?: string }).code || error.name;
  return String(error);
}
