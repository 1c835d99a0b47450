import { Inject, Injectable } from '@nestjs/common';
import { decodeAes256Key, KeyRing } from '@paygrid/envelope-crypto';
import { DEVELOPMENT_WEBHOOK_SECRETS_KEY, DISPATCHER_CONFIG, DispatcherConfig } from '../../config';

/**
 * Endpoint signing secrets at rest (docs/webhooks.md, "Secrets at rest"): each is stored as an AES-256-GCM
 * envelope of libs/envelope-crypto under WEBHOOK_SECRETS_KEY, naming its key id so keys rotate, with the
 * endpoint id as associated data (a sealed secret copied onto another endpoint does not open). The clear
 * secret exists only in memory: in the create and rotate replies, and while an attempt is signed.
 */
export type SecretKeysConfig = Pick<
  DispatcherConfig,
  'WEBHOOK_SECRETS_KEY' | 'WEBHOOK_SECRETS_KEY_ID' | 'WEBHOOK_SECRETS_RETIRED_KEYS' | 'NODE_ENV'
>;

export function webhookSecretKeyRing(config: SecretKeysConfig): KeyRing {
  if (
    config.NODE_ENV === 'production' &&
    config.WEBHOOK_SECRETS_KEY.equals(decodeAes256Key(DEVELOPMENT_WEBHOOK_SECRETS_KEY))
  ) {
    throw new Error('WEBHOOK_SECRETS_KEY: the published development key may not be used in production');
  }
  return new KeyRing({
    active: { id: config.WEBHOOK_SECRETS_KEY_ID, key: config.WEBHOOK_SECRETS_KEY },
    retired: config.WEBHOOK_SECRETS_RETIRED_KEYS,
  });
}

@Injectable()
export class WebhookSecretVault {
  readonly ring: KeyRing;

  constructor(@Inject(DISPATCHER_CONFIG) config: SecretKeysConfig) {
    this.ring = webhookSecretKeyRing(config);
  }

  seal(endpointId: string, secret: string): string {
    return this.ring.encrypt(secret, endpointId);
  }

  open(endpointId: string, sealed: string): string {
    return this.ring.decrypt(sealed, endpointId);
  }
}
