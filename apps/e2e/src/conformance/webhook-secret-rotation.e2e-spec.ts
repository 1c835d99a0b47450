import { randomUUID } from 'node:crypto';
import { CreatedWebhookEndpointView, RotatedWebhookSecretView } from '@paygrid/contracts';
import { ReceivedWebhook, waitFor, WebhookReceiver } from '@paygrid/testing';
import { api, SANDBOX, tokenFor } from '../support/api-client';
import { queryE2eDatabase } from '../support/databases';
import { officialSdkAccepts, standardWebhooksAccepts } from './support/webhook-verifiers';

/**
 * Issue 13 items 11 and 12, through the gateway to a real receiver:
 * - during a rotation's overlap, `x-wk-signature` (one signature, what the official SDKs verify) stays on
 *   the OLD secret, so a receiver still holding it keeps accepting deliveries; `webhook-signature` carries
 *   both; when the overlap ends (here: a second rotation with no overlap) `x-wk-signature` moves on;
 * - the dispatcher's database holds the secrets only sealed (an envelope naming its key id).
 */
describe('webhook secret rotation and secrets at rest', () => {
  let master: string;
  let receiver: WebhookReceiver;
  let endpoint: CreatedWebhookEndpointView;
  const path = `/rotation-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    master = await tokenFor(SANDBOX.master);
    receiver = await WebhookReceiver.start();
    const created = await api<CreatedWebhookEndpointView>('POST', '/v1/webhooks/endpoints', {
      token: master,
      body: { url: receiver.url(path), event_names: ['account.created'], include_sub_accounts: true },
    });
    expect(created.status).toBe(200);
    endpoint = created.body;
  }, 60_000);

  afterAll(async () => {
    if (endpoint)
      await api('POST', `/v1/webhooks/endpoints/${endpoint.endpoint_id}/delete`, { token: master, body: {} });
    await receiver?.close();
  });

  /** Creates a sub-account (one `account.created` event) and answers its delivery. */
  async function deliveryOfNewAccount(): Promise<ReceivedWebhook> {
    const created = await api<{ account_id: string }>('POST', '/v1/accounts/create_accounts', {
      token: master,
      body: {
        business_type: 'ISSUING',
        entity_type: 'COMPANY',
        nickname: `Hooked ${randomUUID().slice(0, 8)}`,
        inherit: 1,
      },
    });
    expect(created.status).toBe(200);
    return waitFor(
      () =>
        receiver
          .received(path)
          .find((request) => JSON.parse(request.rawBody).source_id === created.body.account_id),
      { timeoutMs: 30_000, what: `the account.created webhook of ${created.body.account_id}` },
    );
  }

  async function rotate(overlapSeconds: number): Promise<RotatedWebhookSecretView> {
    const rotated = await api<RotatedWebhookSecretView>(
      'POST',
      `/v1/webhooks/endpoints/${endpoint.endpoint_id}/rotate_secret`,
      {
        token: master,
        body: { overlap_seconds: overlapSeconds },
      },
    );
    expect(rotated.status).toBe(200);
    return rotated.body;
  }

  it('stores the signing secret only sealed under the configured key', async () => {
    const rows = await queryE2eDatabase<{ sealed_secret: string }>(
      'paygrid_webhooks',
      'SELECT sealed_secret FROM webhook_endpoint_secrets WHERE endpoint_id = $1',
      [endpoint.endpoint_id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].sealed_secret).toMatch(/^v2\.[A-Za-z0-9_-]+\./);
    expect(rows[0].sealed_secret).not.toContain(endpoint.secret.slice('whsec_'.length));
    expect(officialSdkAccepts(await deliveryOfNewAccount(), endpoint.secret)).toBe(true);
  }, 60_000);

  it('keeps x-wk-signature on the old secret during the overlap, then moves it to the new one', async () => {
    const second = await rotate(3600);
    const duringOverlap = await deliveryOfNewAccount();
    // The receiver on the official SDK still holds the old secret: it keeps working.
    expect(officialSdkAccepts(duringOverlap, endpoint.secret)).toBe(true);
    expect(officialSdkAccepts(duringOverlap, second.secret)).toBe(false);
    // A Standard Webhooks receiver accepts with either.
    expect(standardWebhooksAccepts(duringOverlap, endpoint.secret)).toBe(true);
    expect(standardWebhooksAccepts(duringOverlap, second.secret)).toBe(true);

    // No overlap: every earlier secret stops signing now, so the SDK header moves to the newest.
    const third = await rotate(0);
    const afterOverlap = await deliveryOfNewAccount();
    expect(officialSdkAccepts(afterOverlap, third.secret)).toBe(true);
    expect(officialSdkAccepts(afterOverlap, endpoint.secret)).toBe(false);
    expect(standardWebhooksAccepts(afterOverlap, second.secret)).toBe(false);

    const rows = await queryE2eDatabase<{ sealed_secret: string }>(
      'paygrid_webhooks',
      'SELECT sealed_secret FROM webhook_endpoint_secrets WHERE endpoint_id = $1',
      [endpoint.endpoint_id],
    );
    expect(rows).toHaveLength(3);
    for (const secret of [endpoint.secret, second.secret, third.secret]) {
      expect(rows.some((row) => row.sealed_secret.includes(secret.slice('whsec_'.length)))).toBe(false);
    }
  }, 90_000);
});
