import { DataSource } from 'typeorm';
import { createDataSource, DatabaseOptions } from './data-source';

/**
 * An app's own database as the app opens it: `PlatformModule.forRoot` at boot and `npm run migrate` both
 * build it here, from the app's config and its migrations declaration, and migrate it with
 * `migrateUnderLock`, so the command does to a database exactly what the app's boot would.
 */

/** The settings of an app's config that shape its database connection (commonConfig declares them). */
export interface AppDatabaseConfig {
  DATABASE_URL: string;
  /** Optional so a test's hand-made config need not name it: prepared unless false. */
  DATABASE_PREPARED_STATEMENTS?: boolean;
  /** Optional for the same reason: DEFAULT_POOL_IDLE_MS unless given. */
  DATABASE_POOL_IDLE_MS?: number;
}

export interface AppDatabaseOptions {
  app: string;
  config: AppDatabaseConfig;
  /** The app's migrations declaration (AppMigrations) and any pool settings of its own. */
  database: Omit<DatabaseOptions, 'url' | 'app'>;
}

export function createAppDataSource({ app, config, database }: AppDatabaseOptions): DataSource {
  return createDataSource({
    ...database,
    url: config.DATABASE_URL,
    app,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
    poolIdleMs: config.DATABASE_POOL_IDLE_MS,
  });
}

/** Arbitrary constant: "one process migrates this database at a time" (advisory locks are per database). */
const MIGRATION_LOCK_ID = 748_213_002;

/**
 * Runs the migrations `dataSource` has not applied yet and answers their names, in order. Replicas booting
 * together on a fresh database (or a boot beside `npm run migrate`) would race to create the same tables:
 * the advisory lock makes the second wait, then find nothing left to do.
 */
export async function migrateUnderLock(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.release();
  }
}
