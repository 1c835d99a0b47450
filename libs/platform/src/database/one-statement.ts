import { DataSource } from 'typeorm';
import { bufferOutbox, OutboxBuffering, outboxWakeOwed, takeBufferedOutbox } from '../outbox/outbox-writer';
import { wakeAfterCommit, wakeToWriteWithCommit } from '../outbox/deferred-wakes';
import { Executor, Statement } from './data-source';

/**
 * A write that is one statement needs no BEGIN and COMMIT: Postgres runs a statement sent alone in a
 * transaction of its own, as atomic as any other, and commits it before answering (synchronously, as
 * every writer's commit). Sent that way it is one round trip instead of three, and no connection sits
 * idle in a transaction between them (docs/performance.md §14).
 *
 * The write is given as its parts, so that its events ride in the same statement: `build` appends them
 * through the executor it is handed (an executor that only collects events: it runs no query) and returns
 * the statement. The events' insert becomes one more data-modifying CTE after the write's own, written only
 * when `eventsOnlyIf` holds: an event exists if and only if the change it announces committed
 * (architecture rule 3), in one statement as in a transaction.
 */
export interface OneStatement {
  /** The write's CTEs, in order, each `name AS (…)`. */
  ctes: string[];
  /** What the statement answers, over its CTEs. */
  select: string;
  /** $1..$n of `ctes` and `select`; the events' parameters follow them. */
  params: unknown[];
  /** An SQL condition over the CTEs: the events are written only when it holds (e.g. `EXISTS (SELECT 1 FROM i)`). */
  eventsOnlyIf?: string;
}

/** The executor `build` appends events through: it collects them and refuses any query. */
class EventCollector implements Executor {
  query(): Promise<never> {
    return Promise.reject(new Error('a one-statement write runs no query of its own: return it from build'));
  }
}

/** The SQL and parameters of `statement`, with the events appended so far to `events`, if given, written by it. */
export function composeStatement(statement: OneStatement, events?: Executor): Statement {
  const appended = events
    ? takeBufferedOutbox(events, statement.params.length + 1, statement.eventsOnlyIf)
    : undefined;
  const ctes = appended ? [...statement.ctes, `appended_events AS (${appended.sql})`] : statement.ctes;
  return {
    sql: ctes.length > 0 ? `WITH ${ctes.join(',\n')}\n${statement.select}` : statement.select,
    params: appended ? [...statement.params, ...appended.params] : statement.params,
  };
}

/**
 * A transaction's closing write (runInTransaction sends it with COMMIT): `statement`, if any, with the
 * events buffered on `executor` so far written by it, or those events' insert alone; the buffer closed.
 * Undefined when there is neither.
 */
export function closingStatement(executor: Executor, statement?: Statement): Statement | undefined {
  if (!statement) return takeBufferedOutbox(executor, 1);
  return composeStatement({ ctes: [], select: statement.sql, params: statement.params }, executor);
}

/**
 * Runs the statement `build` returns, with the events it appended, as one statement outside any
 * transaction; answers its rows. `options.deferWake` as runInTransaction's. With events, the relay's
 * wake-up (outboxWakeOwed) is written right behind the statement on the same connection: it runs once the
 * statement has committed, and both are answered in one round trip; a deferred one is kept in the process
 * (deferred-wakes.ts).
 */
export async function runAsOneStatement(
  dataSource: DataSource,
  build: (events: Executor) => Promise<OneStatement>,
  options: OutboxBuffering = {},
): Promise<unknown> {
  const events = new EventCollector();
  bufferOutbox(events, options);
  const { sql, params } = composeStatement(await build(events), events);
  const owed = outboxWakeOwed(events);
  const wake = wakeToWriteWithCommit(dataSource, owed);
  if (!wake) {
    const rows: unknown = await dataSource.query(sql, params);
    wakeAfterCommit(dataSource, owed);
    return rows;
  }
  const runner = dataSource.createQueryRunner();
  // Both are made now, in this order (each waits for the same connection), and pipelined.
  const written = runner.query(sql, params) as Promise<unknown>;
  // A failed wake-up fails nothing: the relay's poll finds the rows.
  const woke = (runner.query(wake.sql, wake.params) as Promise<unknown>).catch(() => undefined);
  try {
    return await written;
  } finally {
    // The connection goes back to the pool with nothing of ours still in flight on it.
    await woke;
    await runner.release();
  }
}
