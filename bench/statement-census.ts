import { Client } from 'pg';

/**
 * Where a run's Postgres time went, statement by statement, when the server keeps `pg_stat_statements`
 * (preloaded, with the extension created in the `postgres` database; docs/performance.md §4 says how). The
 * bench reads the statements of its own databases before and after a run and ranks what changed, so nothing is
 * reset and other users of the server are left alone. Without the extension the census is skipped: the server's
 * settings are the machine's, not the project's.
 *
 * Execution and planning times are wall time in the backend: on a saturated machine they include waiting for a
 * core, so read them as shares. Calls, plans, buffers and WAL bytes do not drift with the machine's speed.
 */
export interface StatementCounters {
  database: string;
  query: string;
  calls: number;
  plans: number;
  execMs: number;
  planMs: number;
  blocks: number;
  walBytes: number;
}

/** Counters per statement (database and query id), or null when the server keeps no statement statistics. */
export type StatementSample = Map<string, StatementCounters> | null;

/** How many statements the census lists: the costliest, which hold most of the time. */
export const CENSUS_SIZE = 12;

export async function sampleStatements(serverUrl: string, databaseSuffix: string): Promise<StatementSample> {
  const client = new Client({ connectionString: serverUrl, application_name: 'paygrid-bench-statements' });
  await client.connect();
  try {
    const { rows } = await client.query<{
      key: string;
      database: string;
      query: string;
      calls: string;
      plans: string;
      exec_ms: number;
      plan_ms: number;
      blocks: string;
      wal_bytes: string;
    }>(
      `SELECT s.dbid || ':' || s.queryid || ':' || s.toplevel AS key, d.datname AS database, s.query,
              s.calls, s.plans, s.total_exec_time AS exec_ms, s.total_plan_time AS plan_ms,
              s.shared_blks_hit + s.shared_blks_read AS blocks, s.wal_bytes
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname LIKE '%' || $1`,
      [databaseSuffix],
    );
    return new Map(
      rows.map((row) => [
        row.key,
        {
          database: row.database,
          query: row.query,
          calls: Number(row.calls),
          plans: Number(row.plans),
          execMs: row.exec_ms,
          planMs: row.plan_ms,
          blocks: Number(row.blocks),
          walBytes: Number(row.wal_bytes),
        },
      ]),
    );
  } catch {
    // Not preloaded, or no extension in the database the bench connects to: no census.
    return null;
  } finally {
    await client.end();
  }
}

/** One statement's share of a run, per operation of the run (and per call where that reads better). */
export interface StatementShare {
  database: string;
  /** The statement's text, whitespace folded, cut to a line. */
  statement: string;
  msPerOperation: number;
  callsPerOperation: number;
  plansPerCall: number;
  blocksPerCall: number;
  walBytesPerOperation: number;
}

const QUERY_HEAD = 90;

/** The statements that ran between the samples, costliest (execution + planning) first, at most `size`. */
export function statementShares(
  before: Map<string, StatementCounters>,
  after: Map<string, StatementCounters>,
  operations: number,
  databaseSuffix: string,
  size = CENSUS_SIZE,
): StatementShare[] {
  if (operations <= 0) return [];
  const shares: (StatementShare & { ms: number })[] = [];
  for (const [key, now] of after) {
    const then = before.get(key);
    const calls = now.calls - (then?.calls ?? 0);
    if (calls <= 0) continue;
    const ms = now.execMs + now.planMs - (then ? then.execMs + then.planMs : 0);
    const perOperation = (value: number) => round(value / operations, 3);
    const perCall = (value: number, digits: number) => round(value / calls, digits);
    shares.push({
      ms,
      database: now.database.replace(/^paygrid_/, '').slice(0, -databaseSuffix.length),
      statement: now.query.replace(/\s+/g, ' ').trim().slice(0, QUERY_HEAD),
      msPerOperation: perOperation(ms),
      callsPerOperation: perOperation(calls),
      plansPerCall: perCall(now.plans - (then?.plans ?? 0), 3),
      blocksPerCall: perCall(now.blocks - (then?.blocks ?? 0), 1),
      walBytesPerOperation: round((now.walBytes - (then?.walBytes ?? 0)) / operations, 0),
    });
  }
  return shares
    .sort((a, b) => b.ms - a.ms)
    .slice(0, size)
    .map(({ ms: _ms, ...share }) => share);
}

/** The census as a bench section: one figure per statement, its database and text as the name. */
export function censusSection(shares: StatementShare[]): Record<string, string> {
  return Object.fromEntries(
    shares.map((share, index) => [
      `${String(index + 1).padStart(2, '0')} ${share.database}: ${share.statement.replace(/\|/g, '/')}`,
      `${share.msPerOperation} ms, ${share.callsPerOperation} calls, ${share.walBytesPerOperation} WAL bytes per op;` +
        ` ${share.plansPerCall} plans, ${share.blocksPerCall} buffers per call`,
    ]),
  );
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
