/**
 * The six deployable apps: their HTTP port and their own database. The local runner, the deploy
 * manifests and their tests all read this list, so adding an app starts here.
 */
export interface AppDescriptor {
  name: AppName;
  port: number;
  database: string;
}

export type AppName = 'gateway' | 'accounts' | 'acquiring' | 'payouts' | 'issuing' | 'webhook-dispatcher';

export const APP_CATALOG: readonly AppDescriptor[] = [
  { name: 'gateway', port: 3000, database: 'paygrid_gateway' },
  { name: 'accounts', port: 3001, database: 'paygrid_accounts' },
  { name: 'acquiring', port: 3002, database: 'paygrid_acquiring' },
  { name: 'payouts', port: 3003, database: 'paygrid_payouts' },
  { name: 'issuing', port: 3004, database: 'paygrid_issuing' },
  { name: 'webhook-dispatcher', port: 3005, database: 'paygrid_webhooks' },
];

export function appDescriptor(name: AppName): AppDescriptor {
  const found = APP_CATALOG.find((app) => app.name === name);
  if (!found) throw new Error(`unknown app ${name}`);
  return found;
}
