/**
 * Why: every status write is a conditional update (architecture rule 5): `WHERE id = $1 AND status = ANY($2)`
 * lets exactly one of two concurrent operations win, with no read-then-write gap. This module builds that
 * statement from a state machine and, when it matches nothing, finds out why (refused or missing) so the
 * caller gets a TransitionRefusedError naming the current status or an AggregateNotFoundError.
 *
 * Database-agnostic: anything with `query(sql, params)` works, such as a TypeORM EntityManager or QueryRunner,
 * or a pg Pool or Client. Result shapes handled (see rowsOf):
 * - TypeORM on pg returns `[rows, affectedCount]` for UPDATE and DELETE, even with RETURNING, and plain
 *   `rows` for SELECT;
 * - pg returns a QueryResult `{ rows }`; TypeORM's structured result is `{ records }`.
 *
 * Identifiers must match /^[a-z_][a-z0-9_]*$/ (at most 63 characters, the Postgres limit) and are then
 * double-quoted, which keeps reserved words like "order" usable and changes nothing else, because for
 * lower-case names quoted and unquoted spellings are the same identifier. Values only ever travel as parameters.
 */
import { StateMachine } from './define-state-machine';
import { AggregateNotFoundError } from './errors';

export interface SqlExecutor {
  query(sql: string, params: unknown[]): Promise<unknown>;
}

export interface SqlStatement {
  sql: string;
  params: unknown[];
}

export type Row = Record<string, unknown>;
export type AggregateId = string | number | bigint;

export interface ConditionalUpdateInput {
  table: string;
  id: AggregateId;
  /** Statuses the row may be in: machine.allowedFrom(event). */
  from: readonly string[];
  /** The new status: machine.targetOf(event). */
  to: string;
  /**
   * Other columns to write in the same statement, in key order. `undefined` values are skipped (so optional
   * fields can be spread in); `null` writes NULL. The status and id columns may not appear here.
   */
  set?: Readonly<Row>;
  idColumn?: string;
  statusColumn?: string;
  /**
   * One more condition the row must meet, as SQL of the caller's own (never input), e.g. a subquery of a
   * CTE the statement is part of. Its parameters, if any, are the caller's to number after these.
   */
  alsoWhere?: string;
  /** false: no `RETURNING *`, for a statement that is wrapped in another (a CTE that counts its rows). */
  returning?: boolean;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const MAX_IDENTIFIER_LENGTH = 63;
/** A status may have just been moved back into the allowed set by another writer; try again this often. */
const MAX_ATTEMPTS = 3;

/** `"name"` for a safe identifier; throws TypeError for anything else. */
export function quoteIdentifier(name: string): string {
  if (typeof name !== 'string' || name.length > MAX_IDENTIFIER_LENGTH || !IDENTIFIER.test(name)) {
    throw new TypeError(
      `unsafe SQL identifier ${JSON.stringify(name)}: must match ${IDENTIFIER} (≤ 63 chars)`,
    );
  }
  return `"${name}"`;
}

/**
 * `UPDATE "t" SET "status" = $3, "c" = $4, … WHERE "id" = $1 AND "status" = ANY($2) RETURNING *`
 * with params `[id, from, to, …set values]`.
 */
export function conditionalUpdateSql(input: ConditionalUpdateInput): SqlStatement {
  const {
    table,
    id,
    from,
    to,
    set = {},
    idColumn = 'id',
    statusColumn = 'status',
    alsoWhere,
    returning = true,
  } = input;
  const tableSql = quoteIdentifier(table);
  const idSql = quoteIdentifier(idColumn);
  const statusSql = quoteIdentifier(statusColumn);
  if (!Array.isArray(from) || from.length === 0) throw new TypeError('from must list at least one status');
  if (typeof to !== 'string' || to === '') throw new TypeError('to must be a status');

  const assignments = [`${statusSql} = $3`];
  const params: unknown[] = [id, [...from], to];
  for (const [column, value] of Object.entries(set)) {
    if (value === undefined) continue;
    if (column === statusColumn || column === idColumn) {
      throw new TypeError(`set may not write ${JSON.stringify(column)}: the transition owns it`);
    }
    params.push(value);
    assignments.push(`${quoteIdentifier(column)} = $${params.length}`);
  }
  return {
    sql: `UPDATE ${tableSql} SET ${assignments.join(', ')} WHERE ${idSql} = $1 AND ${statusSql} = ANY($2)${alsoWhere ? ` AND (${alsoWhere})` : ''}${returning ? ' RETURNING *' : ''}`,
    params,
  };
}

/** `SELECT "status" AS "status" FROM "t" WHERE "id" = $1`: why did the conditional update match nothing? */
export function currentStatusSql(
  input: Pick<ConditionalUpdateInput, 'table' | 'id' | 'idColumn' | 'statusColumn'>,
): SqlStatement {
  const { table, id, idColumn = 'id', statusColumn = 'status' } = input;
  return {
    sql: `SELECT ${quoteIdentifier(statusColumn)} AS "status" FROM ${quoteIdentifier(table)} WHERE ${quoteIdentifier(idColumn)} = $1`,
    params: [id],
  };
}

/**
 * The rows of a query result, whichever client produced it (see the header). A rows array whose first element
 * is itself an array is read as TypeORM's `[rows, count]`; pg's rowMode 'array' is therefore not supported.
 */
export function rowsOf(result: unknown): Row[] {
  if (Array.isArray(result)) {
    if (result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number')
      return rowsOf(result[0]);
    if (result.every(isRow)) return result;
  } else if (isRow(result)) {
    const rows = result['rows'] ?? result['records'];
    if (Array.isArray(rows)) return rowsOf(rows);
  }
  throw new TypeError('unrecognised query result: expected rows, [rows, count], { rows } or { records }');
}

export interface ApplyTransitionInput<E extends string> {
  table: string;
  id: AggregateId;
  event: E;
  set?: Readonly<Row>;
  idColumn?: string;
  statusColumn?: string;
}

/**
 * Runs the conditional update for `event` and returns the updated row (RETURNING *; the row type is the
 * caller's assertion). When nothing matched, reads the current status and throws TransitionRefusedError naming
 * it, or AggregateNotFoundError. If that read finds an allowed status (another writer moved it back in the
 * meantime) the update is simply tried again, a bounded number of times.
 * Run it inside the caller's transaction when the outbox row must commit with it.
 */
export async function applyTransition<S extends string, E extends string, R extends Row = Row>(
  executor: SqlExecutor,
  machine: StateMachine<S, E>,
  input: ApplyTransitionInput<E>,
): Promise<R> {
  const { event, ...where } = input;
  const update = conditionalUpdateSql({
    ...where,
    from: machine.allowedFrom(event),
    to: machine.targetOf(event),
  });
  const probe = currentStatusSql(where);

  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const [updated] = rowsOf(await executor.query(update.sql, update.params));
    if (updated !== undefined) return updated as R;

    const [current] = rowsOf(await executor.query(probe.sql, probe.params));
    if (current === undefined) throw new AggregateNotFoundError(machine.name, String(input.id));
    const status = String(current['status']);
    machine.assertTransition(status, event, String(input.id));
  }
  throw new Error(
    `${machine.name} ${String(input.id)}: conditional update for ${event} lost ${MAX_ATTEMPTS} races in a row`,
  );
}

function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
