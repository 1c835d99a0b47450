import { SANDBOX_SEED_DEFAULTS } from '@paygrid/contracts';

/**
 * The sandbox credentials the accounts service seeds, as `npm start` prints them: the documented
 * defaults, or the SANDBOX_* overrides the runner passes through to the accounts service.
 */
export interface SandboxCredential {
  label: string;
  accountId: string;
  clientId: string;
  apiKey: string;
}

export function sandboxCredentials(env: NodeJS.ProcessEnv = process.env): SandboxCredential[] {
  return (['master', 'sub1', 'sub2'] as const).map((label) => {
    const defaults = SANDBOX_SEED_DEFAULTS[label];
    const prefix = `SANDBOX_${label.toUpperCase()}`;
    return {
      label: label === 'master' ? 'master' : `sub-account ${label.slice(-1)}`,
      accountId: defaults.accountId,
      clientId: env[`${prefix}_CLIENT_ID`] || defaults.clientId,
      apiKey: env[`${prefix}_API_KEY`] || defaults.apiKey,
    };
  });
}
