import { commonConfig, ConfigSchema } from '@paygrid/platform';

/** Every variable the issuing service reads (see .env.example). */
export const configSchema = {
  ...commonConfig('issuing'),
} satisfies ConfigSchema;
