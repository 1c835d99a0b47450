import { Client } from 'pg';

/**
 * What the databases of the bench's stack did during a run, from Postgres' own counters
 * (pg_stat_database): commits and rows written (inserted + updated + deleted), per database. Divided by
 * the operations of the run, they say how many transactions and row writes one operation costs in each
 * service, without reading its code. Postgres publishes these counters within a second of a transaction;
 * sample after the pipeline drained. `sessions` counts the connections opened: a pool that closes idle
 * connections opens new ones under load, each a forked backend that prepares its statements again
 * (docs/performance.md §40).
 */
export type DatabaseCounters = Map<string, { commits: number; rowWrites: number; sessions: number }>;

/** Both kinds of counter, read on one connection at the same moment (WalCounters below). */
export interface ServerCounters {
  databases: DatabaseCounters;
  wal: WalCounters;
}

export async function sampleServer(serverUrl: string, databaseSuffix: string): Promise<ServerCounters> {
  const client = new Client({ connectionString: serverUrl, application_name: 'paygrid-bench-counters' });
  await client.connect();
  try {
    // Counters of other sessions are read as of now, not as of this session's last snapshot.
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ datname: string; commits: string; row_writes: string; sessions: string }>(
      `SELECT datname, xact_commit AS commits, tup_inserted + tup_updated + tup_deleted AS row_writes, sessions
         FROM pg_stat_database WHERE datname LIKE '%' || $1`,
      [databaseSuffix],
    );
    const [wal] = (
      await client.query<{ bytes: string; fpi: string; syncs: string; checkpoints: string }>(
        `SELECT wal_bytes AS bytes, wal_fpi AS fpi, wal_sync AS syncs,
                (SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter) AS checkpoints
           FROM pg_stat_wal`,
      )
    ).rows;
    return {
      databases: new Map(
        rows.map((row) => [
          row.datname,
          { commits: Number(row.commits), rowWrites: Number(row.row_writes), sessions: Number(row.sessions) },
        ]),
      ),
      wal: {
        bytes: Number(wal.bytes),
        fullPageImages: Number(wal.fpi),
        syncs: Number(wal.syncs),
        checkpoints: Number(wal.checkpoints),
      },
    };
  } finally {
    await client.end();
  }
}

/**
 * Per database (suffix dropped) with any work: commits and row writes per operation, and the connections
 * opened during the run (a count, not per operation: a warm pool opens none).
 */
export function databaseWorkPerOperation(
  before: DatabaseCounters,
  after: DatabaseCounters,
  operations: number,
  databaseSuffix: string,
): Record<string, number> {
  const figures: Record<string, number> = {};
  for (const [database, now] of after) {
    const then = before.get(database) ?? { commits: 0, rowWrites: 0, sessions: 0 };
    const name = database.replace(/^paygrid_/, '').slice(0, -databaseSuffix.length);
    const commits = now.commits - then.commits;
    if (commits === 0 || operations === 0) continue;
    figures[`commits_per_op_${name}`] = Math.round((commits / operations) * 100) / 100;
    figures[`row_writes_per_op_${name}`] = Math.round(((now.rowWrites - then.rowWrites) / operations) * 100) / 100;
    figures[`connections_opened_${name}`] = now.sessions - then.sessions;
  }
  return figures;
}

/**
 * The server's WAL counters (pg_stat_wal, read by sampleServer): bytes, full-page images and syncs to disk. Cluster-wide, so
 * they include anything else the server did meanwhile (hence the stack lock); what they add to the
 * per-database figures is the cost of durability: every commit waits for its WAL to be synced, so the
 * bytes a create writes and the syncs it causes bound its latency on a slow disk as much as its CPU does.
 */
export interface WalCounters {
  bytes: number;
  fullPageImages: number;
  syncs: number;
  /** Checkpoints begun so far (pg_stat_bgwriter, timed and requested). */
  checkpoints: number;
}

/**
 * WAL kilobytes, full-page images and syncs per operation, and how many checkpoints began meanwhile: after
 * one, the first change to each page that existed before it logs the whole page (a full-page image), so a
 * run with a checkpoint in it writes more WAL for the same work (docs/performance.md §37).
 */
export function walPerOperation(before: WalCounters, after: WalCounters, operations: number): Record<string, number> {
  if (operations === 0) return {};
  const per = (delta: number) => Math.round((delta / operations) * 100) / 100;
  return {
    wal_kb_per_op: per((after.bytes - before.bytes) / 1024),
    wal_full_page_images_per_op: per(after.fullPageImages - before.fullPageImages),
    wal_syncs_per_op: per(after.syncs - before.syncs),
    wal_checkpoints_during_run: after.checkpoints - before.checkpoints,
  };
}

/**
 * `VACUUM ANALYZE` of every database of the bench's stack, between phases (never inside a measured window),
 * as pgbench vacuums before each run: the figures are then those of a stack whose tables have statistics.
 * Why the bench does it itself: this machine's Postgres runs with `autovacuum = off`
 * (/etc/postgresql/15/main/conf.d/90-ci.conf), so nothing else ever analyzes the stack's tables, and every
 * prepared statement keeps the generic plan it got while its tables were empty: sequential scans that grow
 * with the table (the relay's read of the outbox, the ledger's entry check, the dispatcher's attempt
 * record: 1–3 ms a call after a minute). A deployment's autovacuum analyzes a busy table within a minute
 * (docs/operations.md). Returns whether the server's autovacuum is on, for the record.
 */
export async function vacuumAnalyzeStack(serverUrl: string, databaseSuffix: string): Promise<{ autovacuum: boolean }> {
  const server = new Client({ connectionString: serverUrl, application_name: 'paygrid-bench-maintenance' });
  await server.connect();
  let names: string[];
  let autovacuum: boolean;
  try {
    const { rows } = await server.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE '%' || $1 ORDER BY datname`,
      [databaseSuffix],
    );
    names = rows.map((row) => row.datname);
    autovacuum = (await server.query<{ autovacuum: string }>('SHOW autovacuum')).rows[0]?.autovacuum === 'on';
  } finally {
    await server.end();
  }
  for (const name of names) {
    const database = await maintenanceClient(serverUrl, name);
    try {
      await database.query('VACUUM ANALYZE');
    } finally {
      await database.end();
    }
  }
  return { autovacuum };
}

/**
 * A checkpoint of the server, now. The server also begins one by itself once the WAL written since the last
 * reaches about half of `max_wal_size` (1 GB here: ~540 MB, under a minute of the bench's c16 creates); the
 * bench takes one before its warm-up, so that the self-begun one does not fall inside the measured run
 * (`wal_checkpoints_during_run` says whether it did) and the warm-up, not the measured run, writes the
 * full-page images of the pages written before it.
 */
export async function checkpointServer(serverUrl: string): Promise<void> {
  const client = await maintenanceClient(serverUrl, 'postgres');
  try {
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
}

/**
 * Waits (a minute at most) until no durable job run is pending in `database` (settlements of earlier creates,
 * due seconds after them: work that belongs to an earlier phase of the bench), on one connection; answers
 * how many were pending at first.
 */
export async function untilNoPendingJobRuns(serverUrl: string, database: string): Promise<number> {
  const client = await maintenanceClient(serverUrl, database);
  const pending = async () =>
    (await client.query<{ pending: number }>(`SELECT count(*)::int AS pending FROM durable_jobs WHERE status = 'pending'`))
      .rows[0]?.pending ?? 0;
  try {
    const first = await pending();
    const deadline = Date.now() + 60_000;
    for (let left = first; left > 0 && Date.now() < deadline; left = await pending()) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return first;
  } finally {
    await client.end();
  }
}

/** A connected client of the bench's maintenance work on `database` of the server at `serverUrl`. */
export async function maintenanceClient(serverUrl: string, database: string): Promise<Client> {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const client = new Client({ connectionString: url.toString(), application_name: 'paygrid-bench-maintenance' });
  await client.connect();
  return client;
}
