import { Client } from 'pg';

/**
 * Creates a service's database when it is missing, by connecting to the server's `postgres`
 * database. Safe to run concurrently and repeatedly: a duplicate CREATE is ignored.
 */
export async function ensureDatabase(databaseUrl: string): Promise<'created' | 'exists'> {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`refusing to create database with name "${name}"`);
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return 'exists';
    try {
      await client.query(`CREATE DATABASE ${name}`);
      return 'created';
    } catch (error) {
      // 42P04 duplicate_database: another process created it between our check and create.
      if ((error as { code?: string }).code === '42P04') return 'exists';
      throw error;
    }
  } finally {
    await client.end();
  }
}

/** Drops a database (test stacks start clean), first ending the sessions still connected to it. */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`refusing to drop database with name "${name}"`);
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    await client.query(`DROP DATABASE IF EXISTS ${name}`);
  } finally {
    await client.end();
  }
}

/** The URL of `database` on the same server as `serverUrl` (whatever database that URL names). */
export function databaseUrlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
