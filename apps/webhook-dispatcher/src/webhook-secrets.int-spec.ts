import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { KeyRing } from '@paygrid/envelope-crypto';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { WebhookEvents1710000000100 } from './migrations/1710000000100-webhook-events';
import { WebhookDeliveries1740000000000 } from './migrations/1740000000000-webhook-deliveries';
import { encryptWebhookSecretsMigration } from './migrations/1750000000000-encrypt-webhook-secrets';
import { WebhookSecretRepository } from './modules/secrets/webhook-secret.repository';
import { WebhookSecretReseal } from './modules/secrets/webhook-secret.reseal';
import { newWebhookSecret } from './modules/sending/webhook-signer';
import { DEVELOPMENT_WEBHOOK_SECRETS_KEY } from './config';
import { defaultKeysSecretVault, migratedDispatcherDatabase } from './test/dispatcher-service';

/**
 * Signing secrets at rest, on a real Postgres: the migration that seals the secrets a dispatcher stored in
 * clear (and its CHECK that refuses clear values afterwards), and the boot-time re-sealing that completes a
 * key rotation. How a sealed secret signs deliveries is covered by webhook-delivery.int-spec.ts.
 */
let database: TestDatabase;
let data: DataSource;
const keyOne = defaultKeysSecretVault();
const clearSecrets = new Map<string, string>();

async function storedSecret(endpointId: string): Promise<string> {
  const [row] = await data.query(
    'SELECT sealed_secret FROM webhook_endpoint_secrets WHERE endpoint_id = $1',
    [endpointId],
  );
  return row.sealed_secret;
}

beforeAll(async () => {
  database = await createTestDatabase('webhook_secrets');
  // A dispatcher as it was before secrets were sealed: two endpoints with clear secrets.
  const before = await migratedDispatcherDatabase(database.url, [
    WebhookEvents1710000000100,
    WebhookDeliveries1740000000000,
  ]);
  for (const endpointId of ['whep_before_1', 'whep_before_2']) {
    const secret = newWebhookSecret();
    clearSecrets.set(endpointId, secret);
    await before.query(
      `INSERT INTO webhook_endpoints (endpoint_id, account_id, master_account_id, url, status)
       VALUES ($1, 'acct', 'acct', 'https://merchant.example/hooks', 'ENABLED')`,
      [endpointId],
    );
    await before.query('INSERT INTO webhook_endpoint_secrets (endpoint_id, secret) VALUES ($1, $2)', [
      endpointId,
      secret,
    ]);
  }
  await before.destroy();
  data = await migratedDispatcherDatabase(database.url, [
    WebhookEvents1710000000100,
    WebhookDeliveries1740000000000,
    encryptWebhookSecretsMigration(keyOne.ring),
  ]);
}, 60_000);

afterAll(async () => {
  await data?.destroy();
  await database?.drop();
});

describe('the migration that seals stored secrets', () => {
  it('leaves no secret in clear: each is an envelope under the configured key that opens to the same secret', async () => {
    for (const [endpointId, secret] of clearSecrets) {
      const sealed = await storedSecret(endpointId);
      expect(sealed.startsWith('v2.k1.')).toBe(true);
      expect(sealed).not.toContain(secret.slice('whsec_'.length));
      expect(keyOne.open(endpointId, sealed)).toBe(secret);
    }
  });

  it('refuses a clear secret written afterwards', async () => {
    await expect(
      data.query('INSERT INTO webhook_endpoint_secrets (endpoint_id, sealed_secret) VALUES ($1, $2)', [
        'whep_before_1',
        newWebhookSecret(),
      ]),
    ).rejects.toThrow(/webhook_endpoint_secrets_sealed_check/);
  });
});

describe('key rotation', () => {
  const newKey = { WEBHOOK_SECRETS_KEY: randomBytes(32).toString('base64'), WEBHOOK_SECRETS_KEY_ID: 'k2' };
  const rotated = defaultKeysSecretVault({
    ...newKey,
    WEBHOOK_SECRETS_RETIRED_KEYS: `k1:${DEVELOPMENT_WEBHOOK_SECRETS_KEY}`,
  });

  it('re-seals every secret under the new key at boot, and the retired key can then leave the ring', async () => {
    const reseal = new WebhookSecretReseal(data, new WebhookSecretRepository(), rotated);
    expect(await reseal.resealAll()).toEqual({ resealed: clearSecrets.size, unreadable: 0 });
    expect(await reseal.resealAll()).toEqual({ resealed: 0, unreadable: 0 });

    const onlyNewKey = defaultKeysSecretVault(newKey);
    for (const [endpointId, secret] of clearSecrets) {
      const sealed = await storedSecret(endpointId);
      expect(sealed.startsWith('v2.k2.')).toBe(true);
      expect(onlyNewKey.open(endpointId, sealed)).toBe(secret);
    }
  });

  it('leaves alone, and counts, a secret under a key the ring does not hold', async () => {
    const stranger = new KeyRing({ active: { id: 'k9', key: randomBytes(32) } });
    await data.query('INSERT INTO webhook_endpoint_secrets (endpoint_id, sealed_secret) VALUES ($1, $2)', [
      'whep_before_2',
      stranger.encrypt(newWebhookSecret(), 'whep_before_2'),
    ]);
    const reseal = new WebhookSecretReseal(data, new WebhookSecretRepository(), rotated);
    expect(await reseal.resealAll()).toEqual({ resealed: 0, unreadable: 1 });
    const [row] = await data.query(
      "SELECT count(*)::int AS n FROM webhook_endpoint_secrets WHERE sealed_secret LIKE 'v2.k9.%'",
    );
    expect(row.n).toBe(1);
  });
});
