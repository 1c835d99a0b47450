import { Module } from '@nestjs/common';
import { WebhookSecretRepository } from './webhook-secret.repository';
import { WebhookSecretReseal } from './webhook-secret.reseal';
import { WebhookSecretVault } from './webhook-secret-vault';

/**
 * Signing secrets at rest: the vault that seals and opens them (used by endpoints when a secret is minted
 * and by deliveries when an attempt is signed) and the boot-time re-sealing that completes a key rotation.
 * The bottom of the dispatcher's features: it needs none of them.
 */
@Module({
  providers: [WebhookSecretVault, WebhookSecretRepository, WebhookSecretReseal],
  exports: [WebhookSecretVault],
})
export class WebhookSecretsModule {}
