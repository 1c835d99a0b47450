import { decodeAes256Key, DEVELOPMENT_CARD_TRANSPORT_KEY } from '@paygrid/card-crypto';
import { EncryptionKey, KEY_ID_PATTERN, parseRetiredKeys } from '@paygrid/envelope-crypto';
import { allowPrivateUrlsVar, commonConfig, ConfigOf, ConfigSchema, ConfigVar, env } from '@paygrid/platform';

/**
 * Every variable the issuing service reads (see .env.example and docs/issuing.md).
 *
 * The card keys have published development defaults so a local stack runs with no setup;
 * `assertProductionKeys` refuses to boot a production process that still uses them. Rotation: put a new key
 * in ISSUING_CARD_KEY under a new ISSUING_CARD_KEY_ID and move the old one to ISSUING_CARD_RETIRED_KEYS; new
 * values are written under the new key, old ones still open (docs/issuing.md, "Encryption and key rotation").
 */
export const DEVELOPMENT_ISSUING_CARD_KEY = 'cGF5Z3JpZC1kZXYtaXNzdWluZy1jYXJkLWtleS0wMDE=';
export const DEVELOPMENT_ISSUING_FINGERPRINT_KEY = 'cGF5Z3JpZC1kZXYtaXNzdWluZy1maW5nZXJwcmludDE=';

function aesKey(description: string, developmentDefault: string): ConfigVar<Buffer> {
  return { description, default: developmentDefault, secret: true, parse: decodeAes256Key };
}

/** `id:base64key,id:base64key` (or `none`): keys that no longer encrypt but still decrypt what they wrote. */
function retiredKeys(description: string): ConfigVar<EncryptionKey[]> {
  return { description, default: 'none', secret: true, parse: parseRetiredKeys };
}

export const configSchema = {
  ...commonConfig('issuing'),
  ISSUING_CARD_KEY: aesKey('AES-256-GCM key (base64, 32 bytes) encrypting card numbers and CVVs at rest', DEVELOPMENT_ISSUING_CARD_KEY),
  ISSUING_CARD_KEY_ID: env.string('id stored beside every value ISSUING_CARD_KEY encrypts ([A-Za-z0-9_-], at most 32)', {
    default: 'k1',
  }),
  ISSUING_CARD_RETIRED_KEYS: retiredKeys('retired card keys as id:base64key,… (they decrypt, never encrypt; "none" for none)'),
  ISSUING_FINGERPRINT_KEY: aesKey(
    'HMAC key (base64, 32 bytes) of card-number fingerprints (lookups by number); never rotated with the card key',
    DEVELOPMENT_ISSUING_FINGERPRINT_KEY,
  ),
  CARD_TRANSPORT_KEY: aesKey(
    'AES-256-GCM key (base64, 32 bytes) shared with the gateway: seals card numbers, PINs and activation codes on the bus',
    DEVELOPMENT_CARD_TRANSPORT_KEY,
  ),
  SANDBOX_SEED: env.oneOf(
    'provision the sandbox accounts (products, card arts, pool cards, funded issuing balances) at boot (auto = yes unless NODE_ENV=production)',
    ['auto', 'true', 'false'] as const,
    { default: 'auto' },
  ),
  SANDBOX_ISSUING_FUNDING: env.int('sandbox: issuing balance (major units) each sandbox account starts with, per currency', {
    default: 1_000_000,
    min: 0,
    max: 1_000_000_000,
  }),
  KYC_REVIEW_DELAY_MS: env.int('sandbox: how long a cardholder stays in KYC review', { default: 3000, min: 0, max: 600_000 }),
  CARD_ORDER_DELAY_MS: env.int('sandbox: how long a card order (create, update, recharge, withdraw, elevate) stays PENDING', {
    default: 1000,
    min: 0,
    max: 600_000,
  }),
  ISSUING_TRANSFER_DELAY_MS: env.int('how long an accepted issuing transfer stays PENDING before the job completes it', {
    default: 1000,
    min: 0,
    max: 600_000,
  }),
  AUTH_CLEARING_DELAY_MS: env.int('sandbox: how long an approved card authorization stays held before it clears (posts)', {
    default: 5000,
    min: 0,
    max: 86_400_000,
  }),
  AUTH_DECISION_TIMEOUT_MS: env.int("ceiling of the wait for an account's real-time decision endpoint (the network's deadline is 5 s)", {
    default: 5000,
    min: 100,
    max: 5000,
  }),
  AUTH_DECISION_DEFAULT: env.oneOf('what an authorization does when the decision endpoint does not answer in time, unless the endpoint chose', ['APPROVE', 'DECLINE'] as const, {
    default: 'DECLINE',
  }),
  ISSUING_DECISION_ALLOW_PRIVATE_URLS: allowPrivateUrlsVar('decision endpoint URLs'),
  PAN_TOKEN_TTL_SECONDS: env.int('lifetime of a PAN token', { default: 60, min: 10, max: 3600 }),
  JOBS_PREFIX: env.string('BullMQ key prefix of the issuing job queue in Redis', { default: 'paygrid-issuing' }),
  JOBS_RECONCILE_INTERVAL_MS: env.int('how often due work recorded in Postgres is (re-)enqueued to BullMQ', {
    default: 1000,
    min: 50,
    max: 60_000,
  }),
} satisfies ConfigSchema;

export type IssuingConfig = ConfigOf<typeof configSchema>;

/** Injection token of the issuing service's full, validated configuration. */
export const ISSUING_CONFIG = Symbol('ISSUING_CONFIG');

export function sandboxSeedEnabled(config: Pick<IssuingConfig, 'SANDBOX_SEED' | 'NODE_ENV'>): boolean {
  return config.SANDBOX_SEED === 'true' || (config.SANDBOX_SEED === 'auto' && config.NODE_ENV !== 'production');
}

/** A production process must not run on the published development keys. */
export function assertProductionKeys(config: IssuingConfig): void {
  if (config.NODE_ENV !== 'production') return;
  const published = [DEVELOPMENT_ISSUING_CARD_KEY, DEVELOPMENT_ISSUING_FINGERPRINT_KEY, DEVELOPMENT_CARD_TRANSPORT_KEY].map(decodeAes256Key);
  for (const [name, key] of [
    ['ISSUING_CARD_KEY', config.ISSUING_CARD_KEY],
    ['ISSUING_FINGERPRINT_KEY', config.ISSUING_FINGERPRINT_KEY],
    ['CARD_TRANSPORT_KEY', config.CARD_TRANSPORT_KEY],
  ] as const) {
    if (published.some((development) => development.equals(key))) {
      throw new Error(`${name} is the published development key; set a real one in production`);
    }
  }
  if (!KEY_ID_PATTERN.test(config.ISSUING_CARD_KEY_ID)) throw new Error('ISSUING_CARD_KEY_ID must match [A-Za-z0-9_-]{1,32}');
}
