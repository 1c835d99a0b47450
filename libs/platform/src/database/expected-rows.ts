import { Statement } from './data-source';

/**
 * `write` (an INSERT, UPDATE or DELETE with no RETURNING clause of its own) as a statement that fails
 * unless it touched exactly `count` rows; `what` names it in the error.
 *
 * For a write whose outcome the work already knows, so that it can be sent without waiting for its answer
 * (TransactionContext.send): an update of a row the transaction holds locked and has read, whose new
 * values it computed itself. Nobody reads the answer of a sent write, so the check has to be in Postgres:
 * a miss (a bug: the row was not as read) fails the statement, which fails the whole transaction at its
 * COMMIT (pipelined-transaction.ts), instead of committing the rest without it.
 */
export function expectingRows(write: Statement, count: number, what: string): Statement {
  const at = write.params.length + 1;
  return {
    sql: `WITH touched AS (${write.sql} RETURNING 1)
          SELECT paygrid_expect_rows((SELECT count(*) FROM touched), $${at}::int, $${at + 1}::text)`,
    params: [...write.params, count, what],
  };
}

/**
 * Whether `error` is an expectingRows check that failed (SQLSTATE P0002 or P0003): a write planned from
 * rows that were not as the work believed. A caller that planned optimistically (from rows it wrote
 * earlier, without a lock) can then run its work again the careful way; the failed transaction wrote nothing.
 */
export function missedPlannedRows(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'P0002' || code === 'P0003';
}
