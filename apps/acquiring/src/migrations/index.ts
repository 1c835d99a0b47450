import { AppMigrations } from '@paygrid/platform';
import { Acquiring1740000000000 } from './1740000000000-acquiring';
import { AcquiringDurableJobs1750000000000 } from './1750000000000-durable-jobs';
import { AccountSettingsVersion1760000000000 } from './1760000000000-account-settings-version';
import { SettlementsBatchNotLocked1770000000000 } from './1770000000000-settlements-batch-not-locked';

/**
 * The acquiring database, for the module's boot and `npm run migrate` alike (add a new migration here).
 * Captures and settlements are durable jobs, so the platform's jobs table comes first.
 */
export function acquiringMigrations(): AppMigrations {
  return {
    durableJobs: true,
    migrations: [
      Acquiring1740000000000,
      AcquiringDurableJobs1750000000000,
      AccountSettingsVersion1760000000000,
      SettlementsBatchNotLocked1770000000000,
    ],
  };
}
