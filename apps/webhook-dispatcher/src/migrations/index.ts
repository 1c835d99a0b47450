import { KeyRing } from '@paygrid/envelope-crypto';
import { AppMigrations } from '@paygrid/platform';
import { SecretKeysConfig, webhookSecretKeyRing } from '../modules/secrets/webhook-secret-vault';
import { WebhookEvents1710000000100 } from './1710000000100-webhook-events';
import { WebhookDeliveries1740000000000 } from './1740000000000-webhook-deliveries';
import { encryptWebhookSecretsMigration } from './1750000000000-encrypt-webhook-secrets';
import { WebhookHeldDeliveries1760000000000 } from './1760000000000-webhook-held-deliveries';
import { WebhookEventsOneCopy1770000000000 } from './1770000000000-webhook-events-one-copy';
import { DeliveriesEndpointNotLocked1780000000000 } from './1780000000000-deliveries-endpoint-not-locked';
import { AttemptsDeliveryNotLocked1790000000000 } from './1790000000000-attempts-delivery-not-locked';
import { DeliveriesEventNotLocked1800000000000 } from './1800000000000-deliveries-event-not-locked';
import { AttemptsKeyedByDelivery1810000000000 } from './1810000000000-attempts-keyed-by-delivery';

/**
 * The dispatcher's schema, in order, for the app and for tests that build its database without it. The
 * secrets migration seals what was stored in clear, so it needs the configured key ring.
 */
// TypeORM's own parameter type: migration classes.
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function dispatcherMigrations(keyRing: KeyRing): Function[] {
  return [
    WebhookEvents1710000000100,
    WebhookDeliveries1740000000000,
    encryptWebhookSecretsMigration(keyRing),
    WebhookHeldDeliveries1760000000000,
    WebhookEventsOneCopy1770000000000,
    DeliveriesEndpointNotLocked1780000000000,
    AttemptsDeliveryNotLocked1790000000000,
    DeliveriesEventNotLocked1800000000000,
    AttemptsKeyedByDelivery1810000000000,
  ];
}

/**
 * The dispatcher's database, for the module's boot and `npm run migrate` alike (add a new migration to
 * dispatcherMigrations). Deliveries are durable jobs, so the platform's jobs table comes first; the secrets
 * migration seals with the key ring the configuration names.
 */
export function webhookDispatcherMigrations(config: SecretKeysConfig): AppMigrations {
  return { durableJobs: true, migrations: dispatcherMigrations(webhookSecretKeyRing(config)) };
}
