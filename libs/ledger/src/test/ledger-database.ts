/** A throwaway database with the ledger's tables, migrated exactly as a service's DataSource migrates them. */
import { DataSource } from 'typeorm';
import { createDataSource } from '@paygrid/platform';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { createLedgerTablesMigration } from '../ledger-tables';

export interface LedgerTestDatabase {
  dataSource: DataSource;
  close(): Promise<void>;
}

export async function createLedgerTestDatabase(prefix: string): Promise<LedgerTestDatabase> {
  const database: TestDatabase = await createTestDatabase(prefix);
  const dataSource = createDataSource({
    url: database.url,
    app: `${prefix}-test`,
    migrations: [createLedgerTablesMigration(1750000000000)],
    poolSize: 20,
  });
  await dataSource.initialize();
  await dataSource.runMigrations();
  return {
    dataSource,
    close: async () => {
      await dataSource.destroy();
      await database.drop();
    },
  };
}
