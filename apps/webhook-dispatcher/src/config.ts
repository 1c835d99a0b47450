import { commonConfig, ConfigSchema } from '@paygrid/platform';

/** Every variable the webhook dispatcher reads (see .env.example). */
export const configSchema = {
  ...commonConfig('webhook-dispatcher'),
} satisfies ConfigSchema;
