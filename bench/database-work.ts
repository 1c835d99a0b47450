import { Client } from 'pg';

/**
 * What the databases of the bench's stack did during a run, from Postgres' own counters
 * (pg_stat_database): commits and rows written (inserted + updated + deleted), per database. Divided by
 * the operations of the run, they say how many transactions and row writes one operation costs in each
 * service, without reading its code. Postgres publishes these counters within a second of a transaction;
 * sample after the pipeline drained.
 */
export type DatabaseCounters = Map<string, { commits: number; rowWrites: number }>;

export async function sampleDatabases(serverUrl: string, databaseSuffix: string): Promise<DatabaseCounters> {
  const client = new Client({ connectionString: serverUrl, application_name: 'paygrid-bench-counters' });
  await client.connect();
  try {
    // Counters of other sessions are read as of now, not as of this session's last snapshot.
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ datname: string; commits: string; row_writes: string }>(
      `SELECT datname, xact_commit AS commits, tup_inserted + tup_updated + tup_deleted AS row_writes
         FROM pg_stat_database WHERE datname LIKE '%' || $1`,
      [databaseSuffix],
    );
    return new Map(rows.map((row) => [row.datname, { commits: Number(row.commits), rowWrites: Number(row.row_writes) }]));
  } finally {
    await client.end();
  }
}

/** Per database (suffix dropped) with any work: commits and row writes per operation. */
export function databaseWorkPerOperation(
  before: DatabaseCounters,
  after: DatabaseCounters,
  operations: number,
  databaseSuffix: string,
): Record<string, number> {
  const figures: Record<string, number> = {};
  for (const [database, now] of after) {
    const then = before.get(database) ?? { commits: 0, rowWrites: 0 };
    const name = database.replace(/^paygrid_/, '').slice(0, -databaseSuffix.length);
    const commits = now.commits - then.commits;
    if (commits === 0 || operations === 0) continue;
    figures[`commits_per_op_${name}`] = Math.round((commits / operations) * 100) / 100;
    figures[`row_writes_per_op_${name}`] = Math.round(((now.rowWrites - then.rowWrites) / operations) * 100) / 100;
  }
  return figures;
}
