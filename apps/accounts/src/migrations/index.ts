import { AppMigrations } from '@paygrid/platform';
import { AccountsAndCredentials1730000000000 } from './1730000000000-accounts-and-credentials';
import { AccountSettingsVersion1760000000000 } from './1760000000000-account-settings-version';

/** The accounts database, for the module's boot and `npm run migrate` alike (add a new migration here). */
export function accountsMigrations(): AppMigrations {
  return {
    durableJobs: false,
    migrations: [AccountsAndCredentials1730000000000, AccountSettingsVersion1760000000000],
  };
}
