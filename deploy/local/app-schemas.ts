/* eslint-disable @nx/enforce-module-boundaries -- tooling reads every app's config declaration */
import { AppName, ConfigSchema } from '@paygrid/platform';
import { configSchema as gateway } from '../../apps/gateway/src/config';
import { configSchema as accounts } from '../../apps/accounts/src/config';
import { configSchema as acquiring } from '../../apps/acquiring/src/config';
import { configSchema as payouts } from '../../apps/payouts/src/config';
import { configSchema as issuing } from '../../apps/issuing/src/config';
import { configSchema as webhookDispatcher } from '../../apps/webhook-dispatcher/src/config';

/**
 * Every app's config schema, keyed by app name (for .env.example, the deploy manifests' test and the
 * docs): the one place outside an app that reads its config declaration. Typed by AppName, so an app
 * added to the catalog must be added here.
 */
export function appSchemas(): Record<AppName, ConfigSchema> {
  return { gateway, accounts, acquiring, payouts, issuing, 'webhook-dispatcher': webhookDispatcher };
}
