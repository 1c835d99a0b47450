import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ensureDatabase } from '@paygrid/platform';
import { testPostgresUrl } from './env';

/**
 * A throwaway database on the real Postgres for one test file: created empty, dropped at the end
 * (connections are terminated first so a leaked pool cannot block the drop).
 */
export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const name = `${prefix}_it_${randomBytes(4).toString('hex')}`.toLowerCase();
  const url = testPostgresUrl(name);
  await ensureDatabase(url);
  return {
    name,
    url,
    async drop() {
      const admin = new Client({ connectionString: testPostgresUrl('postgres') });
      await admin.connect();
      try {
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
        await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      } finally {
        await admin.end();
      }
    },
  };
}
