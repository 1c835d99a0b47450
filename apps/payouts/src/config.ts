import { commonConfig, ConfigSchema } from '@paygrid/platform';

/** Every variable the payouts service reads (see .env.example). */
export const configSchema = {
  ...commonConfig('payouts'),
} satisfies ConfigSchema;
