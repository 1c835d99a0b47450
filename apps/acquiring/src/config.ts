import { commonConfig, ConfigSchema } from '@paygrid/platform';

/** Every variable the acquiring service reads (see .env.example). */
export const configSchema = {
  ...commonConfig('acquiring'),
} satisfies ConfigSchema;
