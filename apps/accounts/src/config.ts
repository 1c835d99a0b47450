import { APP_CONFIG, commonConfig, ConfigOf, ConfigSchema, env } from '@paygrid/platform';
import { SANDBOX_SEED_DEFAULTS } from './modules/seed/sandbox-seed.defaults';

/**
 * Every variable the accounts service reads (see .env.example and docs/accounts.md).
 *
 * SANDBOX_SEED defaults to true and is switched off in production by `sandboxSeedEnabled`, so a
 * production deployment never creates the well-known sandbox keys unless it says so explicitly.
 */
export const configSchema = {
  ...commonConfig('accounts'),
  API_KEY_PEPPER: env.string('server secret of the HMAC-SHA256 that hashes API keys (changing it invalidates every key)', {
    default: 'paygrid-local-development-api-key-pepper-change-me',
    secret: true,
    minLength: 32,
  }),
  ACCOUNT_REVIEW_DELAY_MS: env.int('sandbox: how long a new sub-account stays under review before the decision', {
    default: 3000,
    min: 0,
    max: 86_400_000,
  }),
  ACCOUNT_REVIEW_POLL_MS: env.int('how often the review poller looks for accounts whose review is due', {
    default: 500,
    min: 50,
    max: 60_000,
  }),
  SANDBOX_SEED: env.oneOf(
    'create the sandbox master, its two sub-accounts and their keys at boot (auto = yes unless NODE_ENV=production)',
    ['auto', 'true', 'false'] as const,
    { default: 'auto' },
  ),
  SANDBOX_MASTER_CLIENT_ID: env.string('client id of the seeded master key', {
    default: SANDBOX_SEED_DEFAULTS.master.clientId,
  }),
  SANDBOX_MASTER_API_KEY: env.string('API key of the seeded master key', {
    default: SANDBOX_SEED_DEFAULTS.master.apiKey,
    secret: true,
    minLength: 16,
  }),
  SANDBOX_SUB1_CLIENT_ID: env.string('client id of the seeded first sub-account key', {
    default: SANDBOX_SEED_DEFAULTS.sub1.clientId,
  }),
  SANDBOX_SUB1_API_KEY: env.string('API key of the seeded first sub-account key', {
    default: SANDBOX_SEED_DEFAULTS.sub1.apiKey,
    secret: true,
    minLength: 16,
  }),
  SANDBOX_SUB2_CLIENT_ID: env.string('client id of the seeded second sub-account key', {
    default: SANDBOX_SEED_DEFAULTS.sub2.clientId,
  }),
  SANDBOX_SUB2_API_KEY: env.string('API key of the seeded second sub-account key', {
    default: SANDBOX_SEED_DEFAULTS.sub2.apiKey,
    secret: true,
    minLength: 16,
  }),
} satisfies ConfigSchema;

export type AccountsConfig = ConfigOf<typeof configSchema>;

/** SANDBOX_SEED=auto (the default) means "on, except in production". */
export function sandboxSeedEnabled(config: Pick<AccountsConfig, 'SANDBOX_SEED' | 'NODE_ENV'>): boolean {
  if (config.SANDBOX_SEED === 'auto') return config.NODE_ENV !== 'production';
  return config.SANDBOX_SEED === 'true';
}

/**
 * Injection token of the accounts service's full, validated configuration: the platform's global
 * APP_CONFIG (PlatformModule.forRoot holds this app's config), under the name that says what it holds,
 * so every feature module can inject it without providing it again.
 */
export const ACCOUNTS_CONFIG = APP_CONFIG;
