import { DataSource, EntityManager } from 'typeorm';
import { Logger } from 'pino';
import { bufferOutbox, flushOutbox, OutboxBuffering } from '../outbox/outbox-writer';

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
}

class OpenTransaction implements TransactionContext {
  readonly hooks: (() => Promise<unknown> | unknown)[] = [];

  constructor(readonly manager: EntityManager) {}

  afterCommit(hook: () => Promise<unknown> | unknown): void {
    this.hooks.push(hook);
  }
}

/** `outbox.deferWake`: the transaction's events wake the relay a little later (a staged command's first one). */
export interface TransactionOptions {
  outbox?: OutboxBuffering;
}

export async function runInTransaction<R>(
  dataSource: DataSource,
  logger: Logger,
  work: (tx: TransactionContext) => Promise<R>,
  options: TransactionOptions = {},
): Promise<R> {
  let open: OpenTransaction | undefined;
  const result = await dataSource.transaction(async (manager) => {
    open = new OpenTransaction(manager);
    // The transaction's events are written by one statement at the end (outbox-writer.ts).
    bufferOutbox(manager, options.outbox);
    const value = await work(open);
    await flushOutbox(manager);
    return value;
  });
  if (open) startHooks(open.hooks, logger);
  return result;
}

/**
 * `dataSource.transaction(work)` whose BEGIN carries the transaction's `SET LOCAL` settings in the same
 * round trip: `START TRANSACTION; SET LOCAL …` is one simple query (a query without parameters may hold
 * several statements), where TypeORM would send BEGIN and then each setting on its own. `settings` are
 * statements written in code, never input. A failed COMMIT has already ended the transaction; any other
 * failure rolls it back. No savepoints: `work` must not open a nested transaction on `manager`.
 */
export async function transactionWithSettings<R>(
  dataSource: DataSource,
  settings: readonly string[],
  work: (manager: EntityManager) => Promise<R>,
): Promise<R> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  // Open from the first round trip on: a setting that fails after START TRANSACTION leaves it open (aborted).
  let open = true;
  try {
    await runner.query(['START TRANSACTION', ...settings].join('; '));
    const result = await work(runner.manager);
    open = false;
    await runner.query('COMMIT');
    return result;
  } catch (error) {
    if (open) await runner.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
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
