import { Client } from 'pg';

/** Read-only peeks into the e2e stack's databases, for assertions that the API cannot show. */
export async function queryE2eDatabase<T = Record<string, unknown>>(
  database: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const url = new URL(process.env.PAYGRID_E2E_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${database}_e2e`;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}
