import { DataSource, EntityManager } from 'typeorm';
import { Logger } from 'pino';
import { bufferOutbox, OutboxBuffering, OutboxWakeOwed, outboxWakeOwed } from '../outbox/outbox-writer';
import { wakeAfterCommit, wakeToWriteWithCommit } from '../outbox/deferred-wakes';
import { closingStatement } from './one-statement';
import { Statement } from './data-source';
import { PipelinedTransaction } from './pipelined-transaction';

/**
 * One open database transaction, with the one thing every write path needs besides SQL: work that must
 * happen only once the transaction has committed (handing a durable job to BullMQ, waking a worker).
 * Run before the commit, such work could act on rows another session cannot see yet, or on rows that
 * are then rolled back.
 *
 * After-commit hooks are started in registration order once the commit succeeded, and not awaited: a
 * command's reply does not wait for Redis to take a job (one round trip on every create-intent's path).
 * A hook's synchronous part has run when runInTransaction returns. A failing hook is logged and does not
 * fail the caller, since the committed record (an outbox row, a durable job row) is what guarantees the
 * work happens; hooks only make it happen sooner.
 */
export interface TransactionContext {
  readonly manager: EntityManager;
  afterCommit(hook: () => Promise<unknown> | unknown): void;
  /**
   * The transaction's last statement, sent once the work has returned, with the transaction's events
   * (one more CTE of it) and COMMIT, in one round trip. Nothing reads its answer before COMMIT: whatever
   * it must not do unnoticed has to fail it in Postgres (a unique key, a constraint), which rolls the
   * whole transaction back and rejects runInTransaction. At most once per transaction.
   */
  finishWith(statement: Statement): void;
  /**
   * A write whose answer nothing waits for: sent now, behind the statements before it, and answered with
   * the next statement the work awaits, or with COMMIT: no round trip of its own. Its failure fails the
   * transaction (runInTransaction rejects with it). For a write whose outcome the work can plan without
   * reading it back (a durable job's record).
   */
  send(statement: Statement): void;
  /**
   * `send` for a write whose answer is wanted only once the transaction is over (whether a job run's `done`
   * found the run still this worker's): its rows once answered, no later than COMMIT's answer; undefined when
   * it failed, which fails the transaction as a `send`'s failure does (the transaction reports the error).
   */
  sendReading<Row>(statement: Statement): Promise<Row[] | undefined>;
}

class OpenTransaction implements TransactionContext {
  readonly hooks: (() => Promise<unknown> | unknown)[] = [];
  last: Statement | undefined;
  readonly manager: EntityManager;

  constructor(private readonly open: PipelinedTransaction) {
    this.manager = open.manager;
  }

  send(statement: Statement): void {
    this.open.send(statement);
  }

  sendReading<Row>(statement: Statement): Promise<Row[] | undefined> {
    return this.open.sendReading<Row>(statement);
  }

  afterCommit(hook: () => Promise<unknown> | unknown): void {
    this.hooks.push(hook);
  }

  finishWith(statement: Statement): void {
    if (this.last) throw new Error('a transaction has one last statement: finishWith was called twice');
    this.last = statement;
  }
}

/**
 * `outbox.deferWake`: the transaction's events wake the relay a little later (a staged command's first one).
 * `settings`: `SET LOCAL` statements written with its BEGIN (code, never input), as transactionWithSettings's.
 */
export interface TransactionOptions {
  outbox?: OutboxBuffering;
  settings?: readonly string[];
}

/**
 * The setting under which a transaction's prepared statements run on their generic plans (LOCAL: it ends
 * with the transaction). Postgres plans a prepared statement afresh for its first five executions on a
 * connection, and after that whenever those custom plans looked cheaper than the generic one. A statement
 * that takes its rows as arrays (`unnest($1::text[])`, `= ANY($1)`) keeps looking cheaper: its custom plans
 * know the arrays' lengths, the generic one guesses. So it is planned again on every execution: over one c16
 * create run (pg_stat_statements with track_planning) the dispatcher's group commit of attempts was planned
 * 840 times in 898 calls, a third of its execution time, and the settlements' locking read once per call,
 * three times its execution time (docs/performance.md §9, §29). For statements whose plan does not depend on
 * the values (keys, unnested arrays), the generic plan is the same plan without the planning. Not for a
 * statement that needs a value to choose an index (a parameter compared with a partial index's predicate).
 */
export const GENERIC_PLANS = 'SET LOCAL plan_cache_mode = force_generic_plan';

/**
 * The setting under which a transaction's COMMIT returns without waiting for its WAL flush (LOCAL: this
 * transaction only). What it wrote is visible at once and durable a moment later (the WAL writer flushes
 * within `wal_writer_delay`); a crash of the Postgres server in between loses it. Only for a record whose loss
 * the design already absorbs: the relay's marks (a lost mark republishes, consumers dedupe) and the
 * dispatcher's group commit of quiet attempts (a lost success is sent again, as at-least-once delivery allows).
 * Never for a record that moves money, carries events, or whose commit a Kafka offset depends on.
 */
export const ASYNCHRONOUS_COMMIT = 'SET LOCAL synchronous_commit TO off';

/**
 * Runs `work` in a transaction whose BEGIN rides with the work's first statement and whose COMMIT rides
 * with its events and its `finishWith` statement (pipelined-transaction.ts): a transaction of n statements
 * of the work is n + 1 round trips, where it was n + 2, or n + 3 with events. A nested
 * `manager.transaction` in `work` is a savepoint of this one.
 */
export async function runInTransaction<R>(
  dataSource: DataSource,
  logger: Logger,
  work: (tx: TransactionContext) => Promise<R>,
  options: TransactionOptions = {},
): Promise<R> {
  const open = await PipelinedTransaction.open(dataSource, options.settings);
  const tx = new OpenTransaction(open);
  let result: R;
  let owed: OutboxWakeOwed | undefined;
  try {
    // The transaction's events are written by its closing statement (outbox-writer.ts).
    bufferOutbox(open.manager, options.outbox);
    result = await work(tx);
    const last = closingStatement(open.manager, tx.last);
    owed = outboxWakeOwed(open.manager);
    await open.commit(last, wakeToWriteWithCommit(dataSource, owed));
  } catch (error) {
    return await open.fail(error);
  } finally {
    await open.release();
  }
  wakeAfterCommit(dataSource, owed);
  startHooks(tx.hooks, logger);
  return result;
}

/**
 * A transaction for `work` whose BEGIN carries the transaction's `SET LOCAL` settings and rides with the
 * work's first statement: `START TRANSACTION; SET LOCAL …` is one simple query (a query without
 * parameters may hold several statements), written without waiting for its answer
 * (pipelined-transaction.ts). `settings` are statements written in code, never input. A failed COMMIT has
 * already ended the transaction; any other failure rolls it back.
 */
export function transactionWithSettings<R>(
  dataSource: DataSource,
  settings: readonly string[],
  work: (manager: EntityManager) => Promise<R>,
): Promise<R> {
  return transactionEndingWith(dataSource, settings, async (manager) => {
    const result = await work(manager);
    return { read: () => result };
  });
}

/**
 * The ending of a transaction's work: the statement written together with COMMIT (none: COMMIT alone), and
 * what the work answers from that statement's rows once the transaction committed.
 */
export interface EndingStatement<Row, R> {
  last?: Statement;
  read: (rows: Row[]) => R;
}

/**
 * `transactionWithSettings` whose work hands its last statement back instead of awaiting it: written with
 * COMMIT, one round trip fewer (PipelinedTransaction.commitReturning). For a statement whose answer nothing
 * in the transaction needs.
 */
export async function transactionEndingWith<Row, R>(
  dataSource: DataSource,
  settings: readonly string[],
  work: (manager: EntityManager) => Promise<EndingStatement<Row, R>>,
): Promise<R> {
  const open = await PipelinedTransaction.open(dataSource, settings);
  try {
    const { last, read } = await work(open.manager);
    return read(await open.commitReturning<Row>(last));
  } catch (error) {
    return await open.fail(error);
  } finally {
    await open.release();
  }
}

function startHooks(hooks: (() => Promise<unknown> | unknown)[], logger: Logger): void {
  const failed = (error: unknown) =>
    logger.warn({ err: error }, 'after-commit hook failed; the committed record still guarantees the work');
  for (const hook of hooks) {
    try {
      Promise.resolve(hook()).catch(failed);
    } catch (error) {
      failed(error);
    }
  }
}
