/* eslint-disable @nx/enforce-module-boundaries -- tooling reads every app's config declaration */
import { ConfigSchema } from '@paygrid/platform';
import { configSchema as gateway } from '../../apps/gateway/src/config';
import { configSchema as accounts } from '../../apps/accounts/src/config';
import { configSchema as acquiring } from '../../apps/acquiring/src/config';
import { configSchema as payouts } from '../../apps/payouts/src/config';
import { configSchema as issuing } from '../../apps/issuing/src/config';
import { configSchema as webhookDispatcher } from '../../apps/webhook-dispatcher/src/config';

/** Every app's config schema, keyed by app name (for .env.example and the docs). */
export function appSchemas(): Record<string, ConfigSchema> {
  return { gateway, accounts, acquiring, payouts, issuing, 'webhook-dispatcher': webhookDispatcher };
}
