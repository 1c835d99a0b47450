import { CommandFamily } from '@paygrid/contracts';

/**
 * The six deployable apps: their HTTP port, their own database and, for a service, the command and
 * event family it owns (its `<family>.commands` and `<family>.events` topics). The local runner, the
 * deploy manifests, the test harness and their tests all read this list, so adding an app starts here.
 */
export interface AppDescriptor {
  name: AppName;
  port: number;
  database: string;
  family?: CommandFamily;
}

export type AppName = 'gateway' | 'accounts' | 'acquiring' | 'payouts' | 'issuing' | 'webhook-dispatcher';

export const APP_CATALOG: readonly AppDescriptor[] = [
  { name: 'gateway', port: 3000, database: 'paygrid_gateway' },
  { name: 'accounts', port: 3001, database: 'paygrid_accounts', family: 'accounts' },
  { name: 'acquiring', port: 3002, database: 'paygrid_acquiring', family: 'acquiring' },
  { name: 'payouts', port: 3003, database: 'paygrid_payouts', family: 'payouts' },
  { name: 'issuing', port: 3004, database: 'paygrid_issuing', family: 'issuing' },
  { name: 'webhook-dispatcher', port: 3005, database: 'paygrid_webhooks', family: 'webhooks' },
];

export function appDescriptor(name: AppName): AppDescriptor {
  const found = APP_CATALOG.find((app) => app.name === name);
  if (!found) throw new Error(`unknown app ${name}`);
  return found;
}
