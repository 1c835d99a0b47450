import { createLedgerTablesMigration } from '@paygrid/ledger';
import { AppMigrations } from '@paygrid/platform';
import { Payouts1750000000000 } from './1750000000000-payouts';
import { PayoutRailOnDurableJobs1750000000002 } from './1750000000002-payout-rail-on-durable-jobs';

/** The payouts ledger's tables, created in the payouts database after the service's own. */
const LedgerTables = createLedgerTablesMigration(1750000000001);

/**
 * The payouts database, for the module's boot and `npm run migrate` alike (add a new migration here).
 * The bank rail's steps are durable jobs, so the platform's jobs table comes first.
 */
export function payoutsMigrations(): AppMigrations {
  return {
    durableJobs: true,
    migrations: [Payouts1750000000000, LedgerTables, PayoutRailOnDurableJobs1750000000002],
  };
}
