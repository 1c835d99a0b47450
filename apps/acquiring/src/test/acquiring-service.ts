import { randomBytes } from 'node:crypto';
import { CardSecrets, sealCardSecrets } from '@paygrid/contracts';
import { ServiceHarness, TestDatabase } from '@paygrid/testing';
import { AcquiringModule } from '../acquiring.module';
import { AcquiringConfig, configSchema } from '../config';

/**
 * The acquiring app under the shared ServiceHarness (libs/testing). What is particular to acquiring:
 * test-speed sandbox delays and job reconciliation, and a BullMQ prefix of its own in Redis, deleted
 * whenever the app stops (what an emptied Redis looks like to the next start).
 */
export type AcquiringService = ServiceHarness<typeof configSchema>;

export function startAcquiring(
  options: { env?: Record<string, string>; database?: TestDatabase } = {},
): Promise<AcquiringService> {
  return ServiceHarness.start({
    app: 'acquiring',
    configSchema,
    module: (config) => AcquiringModule.register(config),
    env: {
      JOBS_PREFIX: `acq-it-${randomBytes(4).toString('hex')}`,
      JOBS_RECONCILE_INTERVAL_MS: '200',
      ASYNC_CARD_DELAY_MS: '500',
      SETTLEMENT_DELAY_MS: '300',
      REFUND_DELAY_MS: '200',
      ...options.env,
    },
    redisPrefixes: (config) => [config.JOBS_PREFIX],
    database: options.database,
  });
}

/** A card payload as the gateway sends it: number and CVC sealed with the transport key. */
export function sealedCard(
  config: AcquiringConfig,
  secrets: CardSecrets,
  extra: Record<string, unknown> = {},
) {
  return {
    card: {
      card_name: 'Ada Lovelace',
      expiry_month: '12',
      expiry_year: String(new Date().getUTCFullYear() + 3),
      sealed: sealCardSecrets(secrets, config.CARD_TRANSPORT_KEY),
      ...extra,
    },
  };
}

export function intentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: '10.50',
    currency: 'USD',
    merchant_order_id: `order-${randomBytes(4).toString('hex')}`,
    description: 'Test order',
    return_url: 'https://shop.example/return',
    ...overrides,
  };
}
