import { createDataSource, DurableJobsTable1700000000100 } from '@paygrid/platform';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { Payouts1750000000000 } from './1750000000000-payouts';
import { PayoutRailOnDurableJobs1750000000002 } from './1750000000002-payout-rail-on-durable-jobs';

/** A payouts database from the interim poller keeps every payout in flight across the upgrade. */
describe('moving the bank rail timer to durable_jobs', () => {
  const databases: TestDatabase[] = [];
  afterAll(() => Promise.all(databases.map((database) => database.drop())));

  it('gives each open payout the job of its next step, due when the step was, and drops the column', async () => {
    const database = await createTestDatabase('po_rail_migration');
    databases.push(database);
    const before = createDataSource({ url: database.url, app: 'payouts', migrations: [Payouts1750000000000] });
    await before.initialize();
    await before.runMigrations();
    await before.query(
      `INSERT INTO payouts (payout_id, account_id, master_account_id, currency, amount_minor, statement_descriptor,
                            destination, payout_account_id, status, next_step_at)
       SELECT id, 'acct', 'acct', 'USD', 100, 'UPGRADE', 'INTERNAL', 'acct', status, due
         FROM (VALUES ('po_initiated', 'INITIATED', '2030-01-01T00:00:01Z'::timestamptz),
                      ('po_processing', 'PROCESSING', '2030-01-01T00:00:02Z'),
                      ('po_failed', 'FAILED', '2030-01-01T00:00:03Z'),
                      ('po_completed', 'COMPLETED', NULL),
                      ('po_refunded', 'FAILED_REFUNDED', NULL)) AS rows (id, status, due)`,
    );
    await before.destroy();

    const after = createDataSource({
      url: database.url,
      app: 'payouts',
      migrations: [DurableJobsTable1700000000100, Payouts1750000000000, PayoutRailOnDurableJobs1750000000002],
    });
    await after.initialize();
    try {
      await after.runMigrations();
      expect(await after.query(`SELECT subject_id, kind, due_at, status, attempts FROM durable_jobs ORDER BY due_at`)).toEqual([
        { subject_id: 'po_initiated', kind: 'payout_process', due_at: new Date('2030-01-01T00:00:01Z'), status: 'pending', attempts: 0 },
        { subject_id: 'po_processing', kind: 'payout_settle', due_at: new Date('2030-01-01T00:00:02Z'), status: 'pending', attempts: 0 },
        { subject_id: 'po_failed', kind: 'payout_refund', due_at: new Date('2030-01-01T00:00:03Z'), status: 'pending', attempts: 0 },
      ]);
      expect(await after.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'payouts' AND column_name = 'next_step_at'`)).toEqual([]);

      await after.undoLastMigration();
      expect(await after.query(`SELECT payout_id, next_step_at FROM payouts WHERE next_step_at IS NOT NULL ORDER BY payout_id`)).toEqual([
        { payout_id: 'po_failed', next_step_at: new Date('2030-01-01T00:00:03Z') },
        { payout_id: 'po_initiated', next_step_at: new Date('2030-01-01T00:00:01Z') },
        { payout_id: 'po_processing', next_step_at: new Date('2030-01-01T00:00:02Z') },
      ]);
      expect(await after.query(`SELECT count(*)::int AS n FROM durable_jobs`)).toEqual([{ n: 0 }]);
    } finally {
      await after.destroy();
    }
  });
});
