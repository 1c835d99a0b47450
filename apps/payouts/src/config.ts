import { commonConfig, ConfigOf, ConfigSchema, env } from '@paygrid/platform';

/**
 * Every variable the payouts service reads (see .env.example and docs/payouts.md).
 *
 * The sandbox bank rail's delays decide how long a payout stays in each status; SANDBOX_SEED gives the
 * sandbox accounts their USD settlement bank accounts (on unless NODE_ENV=production, like accounts').
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
  PAYOUT_RAIL_POLL_MS: env.int('how often the bank rail looks for payouts whose next step is due', {
    default: 250,
    min: 20,
    max: 60_000,
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
