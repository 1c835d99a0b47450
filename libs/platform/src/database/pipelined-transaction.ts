import { Client, QueryResult } from 'pg';
import { DataSource, EntityManager, QueryFailedError, QueryRunner } from 'typeorm';
import { Statement } from './data-source';

/**
 * One transaction on one pooled connection, whose BEGIN and COMMIT cost no round trip of their own
 * (docs/performance.md §15).
 *
 * The pool's connections pipeline (node-postgres's `pipeline` mode, data-source.ts): a query is written
 * to the socket when it is made, not once the one before it is answered, and Postgres answers them in
 * order, each with its own Sync. So:
 * - BEGIN is written and not awaited: it reaches Postgres just ahead of the work's first statement and
 *   both are answered in one round trip. A simple-query BEGIN fails only with its connection, or inside a
 *   transaction already aborted: then every statement behind it fails too, so none can run outside the
 *   transaction because its BEGIN failed. (Its settings, `SET LOCAL …`, ride in the same simple query; one
 *   that fails leaves the transaction aborted, not absent.)
 * - The transaction's last statement (`commit(last)`) and COMMIT are written together. When that statement
 *   fails, Postgres answers the COMMIT of the now aborted transaction with the tag ROLLBACK, not an error:
 *   the outcome is read from every answer written here and from COMMIT's tag, never from COMMIT alone.
 *
 * The work's own statements go through TypeORM's manager and are awaited, as before. A failure of
 * something written here and not awaited (BEGIN, a `send`) is the transaction's failure: it is what `fail`
 * throws, rather than the "current transaction is aborted" the work's next statement then gets.
 */
export class PipelinedTransaction {
  private readonly answers: Promise<void>[] = [];
  private failure: { error: unknown } | undefined;
  /** COMMIT is written: the transaction ends with it, committed or rolled back, and needs no ROLLBACK. */
  private ending = false;

  private constructor(
    private readonly runner: QueryRunner,
    private readonly client: Pick<Client, 'query'>,
  ) {}

  /** Takes a connection and writes BEGIN (with `settings`, statements written in code, never input). */
  static async open(dataSource: DataSource, settings: readonly string[] = []): Promise<PipelinedTransaction> {
    const runner = dataSource.createQueryRunner();
    const client = (await runner.connect()) as Client;
    const open = new PipelinedTransaction(runner, client);
    void open.write(['START TRANSACTION', ...settings].join('; '));
    // TypeORM's own bookkeeping, as its startTransaction keeps it: a nested `manager.transaction` is then
    // a savepoint of this one, not a second BEGIN.
    trackTransaction(runner, true);
    return open;
  }

  get manager(): EntityManager {
    return this.runner.manager;
  }

  /**
   * Writes `last` (when given) and COMMIT in one round trip. Rejects with the first failure of anything
   * written here, or when COMMIT was answered ROLLBACK. `after` (the relay's wake-up, outbox-writer.ts) is
   * written right behind COMMIT, in the same write, and runs in a transaction of its own once the commit is
   * done; its failure fails nothing (the relay's poll finds the rows), but it is answered before the
   * connection is released.
   */
  async commit(last?: Statement, after?: Statement): Promise<void> {
    if (last) this.send(last);
    const committed = this.write('COMMIT');
    this.ending = true;
    const followed = after
      ? (this.client.query(after.sql, after.params) as Promise<unknown>).catch(() => undefined)
      : undefined;
    await Promise.all(this.answers);
    await followed;
    if (this.failure) throw this.failure.error;
    const { command } = await committed;
    if (command !== 'COMMIT')
      throw new Error(`the transaction was not committed: COMMIT answered ${command}`);
  }

  /**
   * `commit(last)`, answering `last`'s rows: for a transaction whose last statement's answer is needed only
   * once the transaction is over (the webhook intake's deliveries, started after its commit). Rejects as
   * `commit` does; the rows are those of a committed transaction (none without `last`).
   */
  async commitReturning<Row>(last?: Statement): Promise<Row[]> {
    const answer = last ? this.write(last.sql, last.params) : undefined;
    await this.commit();
    return answer ? ((await answer).rows as Row[]) : [];
  }

  /**
   * Ends a transaction that failed with `error`: rolls it back unless COMMIT was written (which ended it
   * either way), and rejects with the first failure of what was written here, else with `error`.
   */
  async fail(error: unknown): Promise<never> {
    await Promise.all(this.answers);
    if (!this.ending) await this.client.query('ROLLBACK').catch(() => undefined);
    throw this.failure ? this.failure.error : error;
  }

  release(): Promise<void> {
    trackTransaction(this.runner, false);
    return this.runner.release();
  }

  /**
   * Writes `statement` now, behind everything written before it, and does not wait for its answer: it
   * travels with the next statement the work awaits, or with COMMIT. Its failure fails the transaction.
   */
  send(statement: Statement): void {
    void this.write(statement.sql, statement.params);
  }

  /**
   * `send`, keeping the statement's rows for whoever reads them once the transaction is over: undefined when
   * the statement failed, a failure the transaction reports (never rejects, so no rejection goes unhandled).
   */
  sendReading<Row>(statement: Statement): Promise<Row[] | undefined> {
    return this.write(statement.sql, statement.params).then(
      (answer) => answer.rows as Row[],
      () => undefined,
    );
  }

  /** Written now and answered later; its failure is recorded, so no rejection goes unhandled. */
  private write(sql: string, params?: unknown[]): Promise<QueryResult> {
    const answer = this.client.query(sql, params) as Promise<QueryResult>;
    this.answers.push(
      answer.then(
        () => undefined,
        (error: unknown) => {
          // Wrapped as TypeORM wraps the work's statements, so error mappers see one shape.
          this.failure ??= {
            error:
              error instanceof QueryFailedError ? error : new QueryFailedError(sql, params, error as Error),
          };
        },
      ),
    );
    return answer;
  }
}

/** TypeORM's fields for an open transaction (protected in its typings; startTransaction sets them). */
function trackTransaction(runner: QueryRunner, active: boolean): void {
  const state = runner as unknown as { isTransactionActive: boolean; transactionDepth: number };
  state.isTransactionActive = active;
  state.transactionDepth = active ? 1 : 0;
}
