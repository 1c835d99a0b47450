import { commonConfig, ConfigSchema } from '@paygrid/platform';

/** Every variable the accounts service reads (see .env.example). */
export const configSchema = {
  ...commonConfig('accounts'),
} satisfies ConfigSchema;
