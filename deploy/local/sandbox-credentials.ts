import { Client } from 'pg';
import { SANDBOX_SEED_DEFAULTS, sandboxPoolCard } from '@paygrid/contracts';

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

/**
 * One physical card of the sandbox master's pool that nobody was assigned yet, as `npm start` prints it: its
 * number and carrier activation code are public sandbox data (`sandboxPoolCard`), and only which sequence
 * numbers are still free is read, from the issuing database's non-secret `pool_cards.sandbox_sequence`.
 * Undefined when the pool is used up (or issuing has not provisioned it).
 */
export async function readySandboxPoolCard(issuingDatabaseUrl: string): Promise<{ card_number: string; activation_code: string } | undefined> {
  const client = new Client({ connectionString: issuingDatabaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ sequence: number | null }>(
      `SELECT min(sandbox_sequence) AS sequence FROM pool_cards WHERE account_id = $1 AND assigned_card_id IS NULL`,
      [SANDBOX_SEED_DEFAULTS.master.accountId],
    );
    const sequence = rows[0]?.sequence;
    return sequence === null || sequence === undefined ? undefined : sandboxPoolCard(1, Number(sequence));
  } finally {
    await client.end();
  }
}
