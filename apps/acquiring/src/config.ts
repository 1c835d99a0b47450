import { decodeAes256Key, DEVELOPMENT_CARD_TRANSPORT_KEY } from '@paygrid/card-crypto';
import { commonConfig, ConfigOf, ConfigSchema, ConfigVar, env } from '@paygrid/platform';

/**
 * Every variable the acquiring service reads (see docs/acquiring.md).
 *
 * The two card keys have development defaults so a local stack runs with no setup; `assertProductionKeys`
 * refuses to boot a production process that still uses them.
 */
export const DEVELOPMENT_CARD_ENCRYPTION_KEY = 'cGF5Z3JpZC1kZXYtY2FyZC1hdC1yZXN0LWtleS0wMDE=';

function aesKey(description: string, developmentDefault: string): ConfigVar<Buffer> {
  return { description, default: developmentDefault, secret: true, parse: decodeAes256Key };
}

export const configSchema = {
  ...commonConfig('acquiring'),
  CARD_ENCRYPTION_KEY: aesKey(
    'AES-256-GCM key (base64, 32 bytes) encrypting saved card numbers at rest',
    DEVELOPMENT_CARD_ENCRYPTION_KEY,
  ),
  CARD_TRANSPORT_KEY: aesKey(
    'AES-256-GCM key (base64, 32 bytes) shared only with the gateway: opens the card number and CVC sealed in commands',
    DEVELOPMENT_CARD_TRANSPORT_KEY,
  ),
  GATEWAY_PUBLIC_URL: env.url('public base URL of the gateway (hosted 3-D Secure page links)', ['http', 'https'], {
    default: 'http://127.0.0.1:3000',
  }),
  CAPTURE_WINDOW_HOURS: env.int('manual-capture window of accounts without their own setting (decisions §7)', {
    default: 24,
    min: 1,
    max: 24,
  }),
  CAPTURE_WINDOW_OVERRIDE_MS: env.int('sandbox/tests: when > 0, the capture window of accounts without their own setting, in ms', {
    default: 0,
    min: 0,
    max: 86_400_000,
  }),
  CAPTURE_WINDOW_HOUR_MS: env.int('sandbox/tests clock: how many ms one hour of a capture window lasts (3600000 in real time)', {
    default: 3_600_000,
    min: 100,
    max: 3_600_000,
  }),
  ASYNC_CARD_DELAY_MS: env.int('sandbox: how long the asynchronous test card stays PENDING', {
    default: 3000,
    min: 0,
    max: 600_000,
  }),
  SETTLEMENT_DELAY_MS: env.int('sandbox: how long after capture a payment settles', {
    default: 5000,
    min: 0,
    max: 86_400_000,
  }),
  SETTLEMENT_BATCH_MAX: env.int('captures settled in one transaction at most (each waiting run holds one of the 8 job slots)', {
    default: 4,
    min: 1,
    max: 8,
  }),
  SETTLEMENT_GATHER_MS: env.int('how long a cleared capture waits for others to share its settlement transaction', {
    default: 50,
    min: 0,
    max: 600_000,
  }),
  REFUND_DELAY_MS: env.int('sandbox: how long after creation a refund is processed', {
    default: 1000,
    min: 0,
    max: 86_400_000,
  }),
  JOBS_PREFIX: env.string('BullMQ key prefix of the acquiring job queue in Redis', { default: 'paygrid-acquiring' }),
  JOBS_RECONCILE_INTERVAL_MS: env.int('how often due work recorded in Postgres is (re-)enqueued to BullMQ', {
    default: 1000,
    min: 50,
    max: 60_000,
  }),
} satisfies ConfigSchema;

export type AcquiringConfig = ConfigOf<typeof configSchema>;

/** Injection token of the acquiring service's full, validated configuration. */
export const ACQUIRING_CONFIG = Symbol('ACQUIRING_CONFIG');

/** A production process must not run on the published development keys. */
export function assertProductionKeys(config: Pick<AcquiringConfig, 'NODE_ENV' | 'CARD_ENCRYPTION_KEY' | 'CARD_TRANSPORT_KEY'>): void {
  if (config.NODE_ENV !== 'production') return;
  const development = [DEVELOPMENT_CARD_ENCRYPTION_KEY, DEVELOPMENT_CARD_TRANSPORT_KEY].map((key) => decodeAes256Key(key));
  for (const [name, key] of [
    ['CARD_ENCRYPTION_KEY', config.CARD_ENCRYPTION_KEY],
    ['CARD_TRANSPORT_KEY', config.CARD_TRANSPORT_KEY],
  ] as const) {
    if (development.some((dev) => dev.equals(key))) {
      throw new Error(`${name} is the published development key; set a real one in production`);
    }
  }
}
