import { MigrationInterface, QueryRunner } from 'typeorm';
import { isEnvelope, KeyRing } from '@paygrid/envelope-crypto';

/**
 * Signing secrets leave the clear: the column becomes `sealed_secret`, every stored secret is sealed under the
 * configured key (libs/envelope-crypto, the endpoint id as associated data) in the migration's transaction,
 * and a CHECK refuses anything that is not an envelope from then on, so a clear secret can never be written
 * again by mistake. The migration needs the key, so it is built from the app's key ring
 * (webhook-dispatcher.module.ts); `down` opens them again with the same ring.
 */
export const ENCRYPT_WEBHOOK_SECRETS_MIGRATION = 'EncryptWebhookSecrets1750000000000';

export function encryptWebhookSecretsMigration(ring: KeyRing): new () => MigrationInterface {
  return class EncryptWebhookSecrets1750000000000 implements MigrationInterface {
    name = ENCRYPT_WEBHOOK_SECRETS_MIGRATION;

    async up(runner: QueryRunner): Promise<void> {
      await runner.query('ALTER TABLE webhook_endpoint_secrets RENAME COLUMN secret TO sealed_secret');
      const rows: SecretRow[] = await runner.query(
        'SELECT secret_id, endpoint_id, sealed_secret AS value FROM webhook_endpoint_secrets ORDER BY secret_id FOR UPDATE',
      );
      for (const row of rows) {
        if (isEnvelope(row.value)) continue;
        await runner.query('UPDATE webhook_endpoint_secrets SET sealed_secret = $2 WHERE secret_id = $1', [
          row.secret_id,
          ring.encrypt(row.value, row.endpoint_id),
        ]);
      }
      await runner.query(
        `ALTER TABLE webhook_endpoint_secrets ADD CONSTRAINT webhook_endpoint_secrets_sealed_check
           CHECK (sealed_secret ~ '^v[12]\\.')`,
      );
    }

    async down(runner: QueryRunner): Promise<void> {
      await runner.query(
        'ALTER TABLE webhook_endpoint_secrets DROP CONSTRAINT webhook_endpoint_secrets_sealed_check',
      );
      const rows: SecretRow[] = await runner.query(
        'SELECT secret_id, endpoint_id, sealed_secret AS value FROM webhook_endpoint_secrets ORDER BY secret_id FOR UPDATE',
      );
      for (const row of rows) {
        await runner.query('UPDATE webhook_endpoint_secrets SET sealed_secret = $2 WHERE secret_id = $1', [
          row.secret_id,
          ring.decrypt(row.value, row.endpoint_id),
        ]);
      }
      await runner.query('ALTER TABLE webhook_endpoint_secrets RENAME COLUMN sealed_secret TO secret');
    }
  };
}

interface SecretRow {
  secret_id: string;
  endpoint_id: string;
  value: string;
}
