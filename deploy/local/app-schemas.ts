/* eslint-disable @nx/enforce-module-boundaries -- tooling reads every app's config declaration */
import { AppName, ConfigSchema } from '@paygrid/platform';
import { configSchema as gateway } from '../../apps/gateway/src/config';
import { configSchema as accounts } from '../../apps/accounts/src/config';
import { configSchema as acquiring } from '../../apps/acquiring/src/config';
import { configSchema as payouts } from '../../apps/payouts/src/config';
import { configSchema as issuing } from '../../apps/issuing/src/config';
import { configSchema as webhookDispatcher } from '../../apps/webhook-dispatcher/src/config';

/**
 * Every app's config schema, keyed by app name (for .env.example, the deploy manifests' test, the docs and
 * `npm run migrate`): the one place outside an app that reads its config declaration. Each keeps its own
 * type, so code reading an app's values (app-migrations.ts) gets that app's config.
 */
export const APP_CONFIG_SCHEMAS = {
  gateway,
  accounts,
  acquiring,
  payouts,
  issuing,
  'webhook-dispatcher': webhookDispatcher,
} as const satisfies Record<AppName, ConfigSchema>;

/** The same, by AppName, so an app added to the catalog must be added here. */
export function appSchemas(): Record<AppName, ConfigSchema> {
  return { ...APP_CONFIG_SCHEMAS };
}
