/* eslint-disable @nx/enforce-module-boundaries -- tooling reads every app's migrations declaration */
import { AppDatabaseOptions, AppMigrations, AppName, loadConfig } from '@paygrid/platform';
import { accountsMigrations } from '../../apps/accounts/src/migrations';
import { acquiringMigrations } from '../../apps/acquiring/src/migrations';
import { gatewayMigrations } from '../../apps/gateway/src/migrations';
import { issuingMigrations } from '../../apps/issuing/src/migrations';
import { payoutsMigrations } from '../../apps/payouts/src/migrations';
import { webhookDispatcherMigrations } from '../../apps/webhook-dispatcher/src/migrations';
import { APP_CONFIG_SCHEMAS as SCHEMAS } from './app-schemas';

/**
 * An app's database as its module opens it at boot, under the configuration `env` gives the app: its config
 * validated by the app's own schema (a bad value throws, naming it) and the app's migrations declaration, the
 * same function its module calls. Typed by AppName, so an app added to the catalog must be added here.
 */
/** An app whose migrations need nothing of its config (every app but the dispatcher). */
function withoutConfig(app: Exclude<AppName, 'webhook-dispatcher'>, declaration: () => AppMigrations) {
  return (env: NodeJS.ProcessEnv): AppDatabaseOptions => ({
    app,
    config: loadConfig(SCHEMAS[app], env),
    database: declaration(),
  });
}

const DATABASES: Record<AppName, (env: NodeJS.ProcessEnv) => AppDatabaseOptions> = {
  gateway: withoutConfig('gateway', gatewayMigrations),
  accounts: withoutConfig('accounts', accountsMigrations),
  acquiring: withoutConfig('acquiring', acquiringMigrations),
  payouts: withoutConfig('payouts', payoutsMigrations),
  issuing: withoutConfig('issuing', issuingMigrations),
  // The dispatcher's migrations re-seal stored webhook secrets with its key ring, read from its config.
  'webhook-dispatcher': (env) => {
    const config = loadConfig(SCHEMAS['webhook-dispatcher'], env);
    return { app: 'webhook-dispatcher', config, database: webhookDispatcherMigrations(config) };
  },
};

export function appDatabaseOptions(app: AppName, env: NodeJS.ProcessEnv): AppDatabaseOptions {
  return DATABASES[app](env);
}
