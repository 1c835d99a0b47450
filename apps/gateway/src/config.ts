import { commonConfig, ConfigSchema, env } from '@paygrid/platform';

/** Every variable the gateway reads (see .env.example). */
export const configSchema = {
  ...commonConfig('gateway'),
  HOST: env.string('HTTP bind address of the public API', { default: '127.0.0.1' }),
  JWT_SECRET: env.string('HS256 secret signing the auth tokens', {
    default: 'paygrid-local-development-jwt-secret-change-me',
    secret: true,
    minLength: 32,
  }),
  COMMAND_TIMEOUT_MS: env.int('how long the gateway waits for a service reply', { default: 10000, min: 100 }),
} satisfies ConfigSchema;
