import { PlatformTables1700000000000 } from './platform-tables.migration';
import { OutboxLogicalTopics1700000000010 } from './outbox-logical-topics.migration';
import { OutboxNotifyTrigger1700000000020 } from './outbox-notify-trigger.migration';
import { OutboxDeferredWake1700000000030 } from './outbox-deferred-wake.migration';
import { ExpectedRows1700000000040 } from './expected-rows.migration';
import { OutboxWakeAfterCommit1700000000050 } from './outbox-wake-after-commit.migration';
import { DurableJobsTable1700000000100 } from '../jobs/durable-jobs.migration';

/**
 * The one answer to "which migrations does app X's database run, in which order": the app's module at boot
 * and `npm run migrate` (deploy/local/migrate.ts) both build their DataSource through `createDataSource`,
 * which takes its list from here, so the two cannot disagree.
 */

/** A migration class, as TypeORM takes it. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type MigrationClass = Function;

/** The platform's own tables (outbox, inbox, processed commands and their triggers), first in every database. */
export const PLATFORM_MIGRATIONS: readonly MigrationClass[] = [
  PlatformTables1700000000000,
  OutboxLogicalTopics1700000000010,
  OutboxNotifyTrigger1700000000020,
  OutboxDeferredWake1700000000030,
  ExpectedRows1700000000040,
  OutboxWakeAfterCommit1700000000050,
];

/**
 * What an app adds to its database, declared once beside its migrations (apps/<app>/src/migrations/index.ts):
 * its module hands it to `PlatformModule.forRoot({ database })`, and `npm run migrate` reads the same
 * declaration.
 */
export interface AppMigrations {
  /**
   * Whether the app keeps durable jobs (`PlatformOptions.jobs`): their table comes right after the platform's.
   * forRoot refuses a module whose `jobs` and declaration disagree, so `npm run migrate` cannot miss the table.
   */
  durableJobs: boolean;
  /** The app's own migrations, in the order they run. */
  migrations: MigrationClass[];
}

/** Every migration of an app's database, in the order they run. */
export function appDatabaseMigrations(app: Partial<AppMigrations>): MigrationClass[] {
  return [
    ...PLATFORM_MIGRATIONS,
    ...(app.durableJobs ? [DurableJobsTable1700000000100] : []),
    ...(app.migrations ?? []),
  ];
}
