import { decodeAes256Key, DEVELOPMENT_CARD_TRANSPORT_KEY } from '@paygrid/card-crypto';
import { commonConfig, ConfigOf, ConfigSchema, ConfigVar, env } from '@paygrid/platform';

/** Every variable the gateway reads (see .env.example). */
export const configSchema = {
  ...commonConfig('gateway'),
  JWT_SECRET: env.string('HS256 secret signing the auth tokens (at least 32 characters)', {
    default: 'paygrid-local-development-jwt-secret-change-me',
    secret: true,
    minLength: 32,
  }),
  TOKEN_TTL_SECONDS: env.int('lifetime of an auth token', { default: 1800, min: 60, max: 86400 }),
  COMMAND_TIMEOUT_MS: env.int('how long the gateway waits for a service reply', { default: 10000, min: 100 }),
  RATE_LIMIT_PER_SECOND: env.int('API requests per second per account (decisions §4)', {
    default: 100,
    min: 1,
  }),
  IDEMPOTENCY_RETENTION_HOURS: env.int('how long idempotency records are kept', { default: 24, min: 1 }),
  CARD_TRANSPORT_KEY: {
    description: 'AES-256-GCM key (base64, 32 bytes) shared only with acquiring: seals card numbers and CVCs on the bus',
    default: DEVELOPMENT_CARD_TRANSPORT_KEY,
    secret: true,
    parse: decodeAes256Key,
  } as ConfigVar<Buffer>,
} satisfies ConfigSchema;

export type GatewayConfig = ConfigOf<typeof configSchema>;
