import { DataSource } from 'typeorm';
import { createDataSource, DurableJobsTable1700000000100 } from '@paygrid/platform';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { Acquiring1740000000000 } from './1740000000000-acquiring';
import { AcquiringDurableJobs1750000000000 } from './1750000000000-durable-jobs';
import { AccountSettingsVersion1760000000000 } from './1760000000000-account-settings-version';
import { SettlementsBatchNotLocked1770000000000 } from './1770000000000-settlements-batch-not-locked';

/**
 * A settlement's batch is no longer a foreign key (whose lock made the day's batch a hot row); a batch row
 * can no longer be deleted, which keeps what the key promised; the way down restores the key.
 */
describe('settlements without a lock on their batch', () => {
  let database: TestDatabase;
  let data: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('acq_batch_lock');
    data = createDataSource({
      url: database.url,
      app: 'acquiring',
      migrations: [
        DurableJobsTable1700000000100,
        Acquiring1740000000000,
        AcquiringDurableJobs1750000000000,
        AccountSettingsVersion1760000000000,
        SettlementsBatchNotLocked1770000000000,
      ],
    });
    await data.initialize();
    await data.runMigrations();
    await data.query(
      `INSERT INTO settlement_batches (settlement_batch_id, account_id, currency, settlement_date)
       VALUES ('stb_1', 'acct', 'USD', '2026-11-23')`,
    );
  });

  afterAll(async () => {
    await data?.destroy();
    await database?.drop();
  });

  const batchKeys = async () =>
    (
      await data.query(
        `SELECT conname FROM pg_constraint WHERE conrelid = 'settlements'::regclass AND contype = 'f'
            AND confrelid = 'settlement_batches'::regclass`,
      )
    ).map((row: { conname: string }) => row.conname);

  it('has no foreign key from settlements to their batch, and refuses to delete a batch', async () => {
    expect(await batchKeys()).toEqual([]);
    await expect(
      data.query(`DELETE FROM settlement_batches WHERE settlement_batch_id = 'stb_1'`),
    ).rejects.toThrow('settlement batches are never deleted');
  });

  it('restores the foreign key and allows deletes again on the way down', async () => {
    await data.undoLastMigration();
    expect(await batchKeys()).toEqual(['settlements_settlement_batch_id_fkey']);
    await data.query(`DELETE FROM settlement_batches WHERE settlement_batch_id = 'stb_1'`);
    expect(await data.query(`SELECT 1 FROM settlement_batches`)).toEqual([]);
  });
});
