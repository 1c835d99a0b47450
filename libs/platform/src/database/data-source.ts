import { DataSource, EntityManager, MixedList, EntitySchema } from 'typeorm';
import { rowsOf as queryRows } from '@paygrid/state-machine';
import { PreparedPgClient, TracedPgClient } from '../tracing/pg-tracing';
import { appDatabaseMigrations, MigrationClass } from './app-migrations';
import { DEFAULT_POOL_IDLE_MS } from './pool-defaults';

/**
 * Each service owns one Postgres database (architecture rule 1). This builds its TypeORM DataSource
 * with the platform's own tables (outbox, inbox, processed commands) migrated before the app's.
 */
export interface DatabaseOptions {
  url: string;
  app: string;
  // TypeORM's own parameter types: entity classes, schemas or glob strings.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities?: MixedList<Function | string | EntitySchema>;
  migrations?: MigrationClass[];
  /** Whether the durable jobs' table runs before `migrations` (app-migrations.ts). */
  durableJobs?: boolean;
  poolSize?: number;
  /** How long a pooled connection may sit idle before it is closed (DATABASE_POOL_IDLE_MS). */
  poolIdleMs?: number;
  /** Parameterised queries as named prepared statements (prepared-statements.ts); on unless false. */
  preparedStatements?: boolean;
}

export function createDataSource(options: DatabaseOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    applicationName: `paygrid-${options.app}`,
    entities: options.entities ?? [],
    migrations: appDatabaseMigrations({ durableJobs: options.durableJobs, migrations: options.migrations }),
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    // node-postgres's pool builds its connections from `Client`: the traced one (tracing/pg-tracing.ts),
    // preparing its statements unless told not to.
    extra: {
      max: options.poolSize ?? 10,
      // A query is written when it is made, not once the one before it is answered: a transaction's BEGIN
      // and COMMIT ride with its statements (pipelined-transaction.ts). Nothing here uses what pipeline
      // mode refuses (cursors, query streams, `rows`).
      pipeline: true,
      connectionTimeoutMillis: 5000,
      // A connection closed when idle is paid for again on the next burst: a backend forked, and every named
      // prepared statement of the path parsed and planned again on its first use. node-postgres closes one
      // after 10 s idle by default; a stack quiet for a few seconds then met its next burst with cold
      // connections (docs/performance.md §40). Kept for DEFAULT_POOL_IDLE_MS unless told otherwise.
      idleTimeoutMillis: options.poolIdleMs ?? DEFAULT_POOL_IDLE_MS,
      Client: options.preparedStatements === false ? TracedPgClient : PreparedPgClient,
    },
  });
}

export type Executor = Pick<EntityManager, 'query'>;

/** A statement and its parameters ($1..$n), sent later or composed into another. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * The rows of a query result: TypeORM's pg driver answers UPDATE/DELETE ... RETURNING with
 * [rows, count] and SELECT/INSERT with rows (one reading, shared with libs/state-machine).
 */
export function rowsOf<T>(result: unknown): T[] {
  return queryRows(result) as T[];
}
