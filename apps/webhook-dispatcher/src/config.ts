import { decodeAes256Key, EncryptionKey, KEY_ID_PATTERN, parseRetiredKeys } from '@paygrid/envelope-crypto';
import {
  allowPrivateUrlsVar,
  APP_CONFIG,
  commonConfig,
  ConfigOf,
  ConfigSchema,
  ConfigVar,
  env,
} from '@paygrid/platform';

/**
 * Every variable the webhook dispatcher reads (documented in docs/webhooks.md, "Configuration").
 *
 * The retry schedule and the other timings default to production values (decisions §8); tests and the
 * bench shorten them through the same variables, so what they exercise is the production code path.
 */
const DAY_MS = 24 * 3600 * 1000;

/** Delays in ms between attempts: attempt 1 is immediate, attempt n+1 follows the n-th delay. */
function delayList(description: string, defaults: number[]): ConfigVar<number[]> {
  return {
    description,
    default: defaults.join(','),
    parse(raw) {
      const items = raw.split(',').map((item) => item.trim());
      if (items.length === 0 || items.some((item) => !/^\d+$/.test(item))) {
        throw new Error('must be a comma-separated list of non-negative integers (milliseconds)');
      }
      const delays = items.map(Number);
      if (delays.length > 50) throw new Error('must list at most 50 delays');
      if (delays.some((delay) => delay > 7 * DAY_MS)) throw new Error('a delay may not exceed 7 days');
      return delays;
    },
  };
}

/** Empty (the default) switches the ops routes off; a set token must be long enough not to be guessed. */
function opsToken(description: string): ConfigVar<string> {
  return {
    description,
    default: '',
    secret: true,
    parse(raw) {
      if (raw !== '' && raw.length < 16)
        throw new Error('must be empty (ops routes off) or at least 16 characters');
      return raw;
    },
  };
}

/**
 * Development default of WEBHOOK_SECRETS_KEY, published so a local stack runs with no setup; a production
 * process refuses to boot with it (webhook-secret-vault.ts).
 */
export const DEVELOPMENT_WEBHOOK_SECRETS_KEY = 'cGF5Z3JpZC1kZXYtd2ViaG9vay1zZWNyZXRzLWtleTE=';

export const configSchema = {
  ...commonConfig('webhook-dispatcher'),
  WEBHOOK_QUEUE_PREFIX: env.string('BullMQ key prefix of the delivery queue in Redis (tests use their own)', {
    default: 'paygrid',
  }),
  WEBHOOK_RETRY_SCHEDULE_MS: delayList(
    'delays in ms before each retry; attempt 1 is immediate, so n delays give n+1 attempts',
    [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
  ),
  WEBHOOK_RETRY_JITTER_PERCENT: env.int('random spread applied to each retry delay, in percent either way', {
    default: 20,
    min: 0,
    max: 50,
  }),
  WEBHOOK_RETRY_AFTER_MAX_MS: env.int('the longest Retry-After (on 429/503) the dispatcher honours', {
    default: 3_600_000,
    min: 0,
    max: DAY_MS,
  }),
  WEBHOOK_TIMEOUT_MS: env.int('how long one attempt may take before it counts as failed', {
    default: 15_000,
    min: 100,
    max: 60_000,
  }),
  WEBHOOK_DISABLE_AFTER_MS: env.int('an endpoint whose attempts all failed for this long is disabled', {
    default: 5 * DAY_MS,
    min: 1,
  }),
  WEBHOOK_SECRET_OVERLAP_MS: env.int(
    'how long a rotated-out secret keeps signing, unless the rotation says otherwise',
    {
      default: DAY_MS,
      min: 0,
      max: 7 * DAY_MS,
    },
  ),
  WEBHOOK_ALLOW_PRIVATE_URLS: allowPrivateUrlsVar('endpoint URLs'),
  WEBHOOK_CONCURRENCY: env.int('deliveries one dispatcher process sends at the same time', {
    default: 50,
    min: 1,
    max: 1000,
  }),
  WEBHOOK_DIRECT_SENDS: env.int(
    'first attempts the intake sends itself, without a queue hop, at the same time (0: every attempt is a BullMQ job)',
    // Higher than WEBHOOK_CONCURRENCY: a slot is held for the whole POST, and under load a first attempt
    // that finds none goes the slow way (queue, claim): in the c16 create bench, 50 slots sent about a third
    // of first attempts there (lease claims per run 4,019 -> 1,915 at 200, the rest being retries).
    { default: 200, min: 0, max: 1000 },
  ),
  WEBHOOK_RECONCILE_INTERVAL_MS: env.int('how often the reconciler re-enqueues due deliveries Redis lost', {
    default: 5_000,
    min: 50,
    max: 600_000,
  }),
  WEBHOOK_STALLED_INTERVAL_MS: env.int(
    "BullMQ lock and stalled-job check: how soon a dead worker's jobs run again",
    {
      default: 30_000,
      min: 500,
      max: 600_000,
    },
  ),
  WEBHOOK_SECRETS_KEY: {
    description: 'AES-256-GCM key (base64, 32 bytes) encrypting endpoint signing secrets at rest',
    default: DEVELOPMENT_WEBHOOK_SECRETS_KEY,
    secret: true,
    parse: decodeAes256Key,
  } satisfies ConfigVar<Buffer>,
  WEBHOOK_SECRETS_KEY_ID: {
    description: 'id stored in every secret WEBHOOK_SECRETS_KEY encrypts ([A-Za-z0-9_-], at most 32); a new key needs a new id',
    default: 'k1',
    parse(raw: string) {
      if (!KEY_ID_PATTERN.test(raw)) throw new Error('must be 1 to 32 of [A-Za-z0-9_-]');
      return raw;
    },
  } satisfies ConfigVar<string>,
  WEBHOOK_SECRETS_RETIRED_KEYS: {
    description: 'retired secret keys as id:base64key,… that still decrypt (rotation); "none" for none',
    default: 'none',
    secret: true,
    parse: parseRetiredKeys,
  } satisfies ConfigVar<EncryptionKey[]>,
  OPS_TOKEN: opsToken('bearer token of the ops routes (/ops/queues); empty switches them off'),
} satisfies ConfigSchema;

export type DispatcherConfig = ConfigOf<typeof configSchema>;

/**
 * Injection token of the dispatcher's full, validated configuration: the platform's global APP_CONFIG
 * (PlatformModule.forRoot holds this app's config), under the name that says what it holds, so every
 * feature module can inject it without providing it again.
 */
export const DISPATCHER_CONFIG = APP_CONFIG;
