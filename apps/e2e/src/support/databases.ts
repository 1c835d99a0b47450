import { Client } from 'pg';
import { e2eInfrastructure } from './stack-settings';

/** Read-only peeks into the e2e stack's databases, for assertions that the API cannot show. */
export async function queryE2eDatabase<T = Record<string, unknown>>(
  database: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const url = new URL(e2eInfrastructure().databaseServerUrl);
  url.pathname = `/${database}_e2e`;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}
