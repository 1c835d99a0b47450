/**
 * The sandbox accounts and keys every local and CI stack has (docs/accounts.md). Fixed, documented
 * values so that tests, examples and the local runner can use them without looking anything up.
 * The client ids and API keys are only defaults: SANDBOX_* variables override them, and the seed is
 * off in production unless SANDBOX_SEED=true says otherwise.
 *
 * Part of the public sandbox contract (like the test card numbers): the local runner prints them,
 * the e2e suites log in with them, and the accounts service seeds them.
 */
export interface SandboxAccountDefaults {
  accountId: string;
  shortReferenceId: string;
  accountName: string;
  nickname: string;
  clientId: string;
  apiKey: string;
  permissions: readonly string[];
}

export const SANDBOX_SEED_DEFAULTS = {
  master: {
    accountId: '5a0d0b0c-0000-4000-8000-000000000001',
    shortReferenceId: 'P000000001',
    accountName: 'Paygrid Sandbox Master',
    nickname: 'Sandbox Master',
    clientId: 'pg_sandbox_master',
    apiKey: 'sk_sandbox_master_0123456789abcdef',
    permissions: ['sensitive_card_details'],
  },
  sub1: {
    accountId: '5a0d0b0c-0000-4000-8000-000000000002',
    shortReferenceId: 'P000000002',
    accountName: 'Paygrid Sandbox Sub-account One',
    nickname: 'Sandbox Sub One',
    clientId: 'pg_sandbox_sub1',
    apiKey: 'sk_sandbox_sub1_0123456789abcdef',
    permissions: [],
  },
  sub2: {
    accountId: '5a0d0b0c-0000-4000-8000-000000000003',
    shortReferenceId: 'P000000003',
    accountName: 'Paygrid Sandbox Sub-account Two',
    nickname: 'Sandbox Sub Two',
    clientId: 'pg_sandbox_sub2',
    apiKey: 'sk_sandbox_sub2_0123456789abcdef',
    permissions: [],
  },
} as const satisfies Record<'master' | 'sub1' | 'sub2', SandboxAccountDefaults>;
