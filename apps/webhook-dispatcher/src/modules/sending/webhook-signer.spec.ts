import { createHmac } from 'node:crypto';
import { newWebhookSecret, signedHeaders, standardWebhooksKey } from './webhook-signer';

describe('webhook signing', () => {
  const body = '{"event_id":"e1","data":{"amount":"10.00"}}';

  it('mints whsec_ secrets whose key decodes to 24 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(standardWebhooksKey(secret)).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('signs x-wk-signature as hex HMAC-SHA512 of body then timestamp with the only secret', () => {
    const headers = signedHeaders({ eventId: 'e1', body, secrets: ['whsec_only'], timestampSeconds: 1711077773 });
    const expected = createHmac('sha512', 'whsec_only').update(`${body}1711077773`).digest('hex');
    expect(headers['x-wk-signature']).toBe(expected);
  });

  it('keeps x-wk-signature on the oldest active secret during a rotation, for receivers still holding it', () => {
    const headers = signedHeaders({
      eventId: 'e1',
      body,
      secrets: ['whsec_newest', 'whsec_new', 'whsec_old'],
      timestampSeconds: 1711077773,
    });
    const expected = createHmac('sha512', 'whsec_old').update(`${body}1711077773`).digest('hex');
    expect(headers['x-wk-timestamp']).toBe('1711077773');
    expect(headers['x-wk-signature']).toBe(expected);
    expect(headers['x-wk-signature']).toMatch(/^[0-9a-f]{128}$/);
  });

  it('carries one Standard Webhooks signature per active secret', () => {
    const secrets = [newWebhookSecret(), newWebhookSecret()];
    const headers = signedHeaders({ eventId: 'evt-1', body, secrets, timestampSeconds: 1700000000 });
    const expected = secrets.map(
      (secret) =>
        `v1,${createHmac('sha256', standardWebhooksKey(secret)).update(`evt-1.1700000000.${body}`).digest('base64')}`,
    );
    expect(headers['webhook-signature'].split(' ')).toEqual(expected);
    expect(headers['webhook-id']).toBe('evt-1');
    expect(headers['webhook-timestamp']).toBe('1700000000');
    expect(headers['content-type']).toBe('application/json');
  });

  it('refuses to sign without a secret', () => {
    expect(() => signedHeaders({ eventId: 'e', body, secrets: [], timestampSeconds: 1 })).toThrow(
      /active secret/,
    );
  });
});
