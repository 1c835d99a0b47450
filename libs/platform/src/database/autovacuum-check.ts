import { Logger } from 'pino';
import { Executor, rowsOf } from './data-source';

/**
 * Says at boot, once per process, when the Postgres server runs with `autovacuum = off`.
 *
 * Why a service cares: nothing then analyzes or vacuums its tables. Every statement of the pool is a named
 * prepared statement (prepared-statements.ts), and each connection keeps the generic plan Postgres chose
 * after the statement's first executions; on a new database those ran against empty tables, where a
 * sequential scan is cheapest. A new ANALYZE is what makes Postgres plan again, so without autovacuum the
 * relay's read of the outbox, the ledger's entry check and the dispatcher's attempt record keep scanning
 * whole tables that only grow (measured: 1–3 ms a call a minute into a load, 0.1–0.7 ms once analyzed;
 * docs/performance.md §18), and the outbox's dead rows are never reclaimed. The service still works,
 * so this warns rather than refusing to start (a test server may turn autovacuum off on purpose);
 * docs/operations.md says what to set.
 */
let warnedInThisProcess = false;

export async function warnWhenAutovacuumIsOff(
  executor: Executor,
  logger: Pick<Logger, 'warn'>,
): Promise<boolean> {
  const [row] = rowsOf<{ autovacuum: string }>(await executor.query('SHOW autovacuum'));
  const on = row?.autovacuum === 'on';
  // Once per process: a test process boots many apps against the same server.
  if (!on && !warnedInThisProcess) {
    warnedInThisProcess = true;
    logger.warn(
      { autovacuum: row?.autovacuum ?? 'unknown' },
      "postgres runs with autovacuum off: this service's tables are never analyzed or vacuumed, so its prepared statements keep plans made on empty tables (sequential scans) and dead rows pile up; turn autovacuum on (docs/operations.md)",
    );
  }
  return on;
}
