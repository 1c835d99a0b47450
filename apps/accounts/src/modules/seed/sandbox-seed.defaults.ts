/**
 * The sandbox accounts and keys the seed ensures (docs/accounts.md). The values themselves are part
 * of the public sandbox contract and live in libs/contracts (sandbox.ts), where the local runner and
 * the e2e suites read them too; this module is the accounts service's name for them.
 */
export { SANDBOX_SEED_DEFAULTS } from '@paygrid/contracts';
export type { SandboxAccountDefaults } from '@paygrid/contracts';
