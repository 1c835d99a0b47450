import { randomBytes } from 'node:crypto';
import { dropDatabase, ensureDatabase } from '@paygrid/platform';
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
  return { name, url, drop: () => dropDatabase(url) };
}
