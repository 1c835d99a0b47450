import { commonConfig, ConfigOf, ConfigSchema, env } from '@paygrid/platform';

/**
 * Every variable the payouts service reads (see .env.example and docs/payouts.md).
 *
 * The sandbox bank rail's delays decide how long a payout stays in each status; each step is a durable
 * job (JOBS_*: its queue, how soon Redis is repaired from Postgres, how long a killed worker's step waits).
 * SANDBOX_SEED gives the sandbox accounts their USD settlement bank accounts (on unless
 * NODE_ENV=production, like accounts').
 */
export const configSchema = {
  ...commonConfig('payouts'),
  PAYOUT_PROCESSING_DELAY_MS: env.int('sandbox bank rail: how long a new payout stays INITIATED before PROCESSING', {
    default: 2000,
    min: 0,
    max: 86_400_000,
  }),
  PAYOUT_SETTLE_DELAY_MS: env.int('sandbox bank rail: how long a payout stays PROCESSING before COMPLETED or FAILED', {
    default: 3000,
    min: 0,
    max: 86_400_000,
  }),
  PAYOUT_REFUND_DELAY_MS: env.int('sandbox bank rail: how long a FAILED payout waits before its funds return (FAILED_REFUNDED)', {
    default: 2000,
    min: 0,
    max: 86_400_000,
  }),
  JOBS_PREFIX: env.string('BullMQ key prefix of the payouts job queue (the bank rail steps) in Redis', {
    default: 'paygrid-payouts',
  }),
  JOBS_RECONCILE_INTERVAL_MS: env.int('how often due work recorded in Postgres is (re-)enqueued to BullMQ', {
    default: 1000,
    min: 50,
    max: 60_000,
  }),
  JOBS_LEASE_MS: env.int('how long a started bank rail step is its worker\'s alone; a killed worker\'s step reruns after it', {
    default: 60_000,
    min: 1000,
    max: 3_600_000,
  }),
  SANDBOX_SEED: env.oneOf(
    'give the sandbox master and sub-accounts a USD settlement bank account at boot (auto = yes unless NODE_ENV=production)',
    ['auto', 'true', 'false'] as const,
    { default: 'auto' },
  ),
} satisfies ConfigSchema;

export type PayoutsConfig = ConfigOf<typeof configSchema>;

/** Injection token of the payouts service's full, validated configuration. */
export const PAYOUTS_CONFIG = Symbol('PAYOUTS_CONFIG');

/** SANDBOX_SEED=auto (the default) means "on, except in production". */
export function sandboxSeedEnabled(config: Pick<PayoutsConfig, 'SANDBOX_SEED' | 'NODE_ENV'>): boolean {
  if (config.SANDBOX_SEED === 'auto') return config.NODE_ENV !== 'production';
  return config.SANDBOX_SEED === 'true';
}
