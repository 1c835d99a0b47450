import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { SANDBOX_SEED_DEFAULTS } from '@paygrid/contracts';
import { api, isEnvelope, SANDBOX, tokenFor } from '../support/api-client';
import { createKey, revokeKey, withOperatorBus } from '../support/operator-bus';
import { startExtraInstance } from '../support/stack-control';
import { appSchemas, stopApps } from '@paygrid/local-stack';

/**
 * The behaviour the official SDKs rely on (wire-compat §0–§7, decisions §2): the token call and its
 * response, the JWT claims, Bearer and bare tokens, the silent-refresh message, IP allow-lists, key
 * revocation, rate limiting as real HTTP 429, and idempotency keys on GET.
 */
const LIST = '/v1/accounts?page_size=10&page_number=1';

function claimsOf(token: string): Record<string, unknown> {
  const [, payload] = token.split('.');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

async function issueToken(clientId: string, apiKey: string) {
  return api<{ auth_token: string; expired_at: number }>('POST', '/v1/connect/token', {
    headers: { 'x-client-id': clientId, 'x-api-key': apiKey },
    idempotencyKey: null,
  });
}

describe('token issuance', () => {
  it('answers {auth_token, expired_at} at the top level for an SDK-style call with no body', async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await issueToken(SANDBOX.master.clientId, SANDBOX.master.apiKey);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['auth_token', 'expired_at']);
    expect(response.body.auth_token.split('.')).toHaveLength(3);
    expect(response.body.expired_at).toBeGreaterThanOrEqual(before + 1800);
    expect(response.body.expired_at).toBeLessThanOrEqual(before + 1800 + 60);
  });

  it('puts the claims the SDKs decode into the JWT, with parent_entity_id "0" for a master', async () => {
    const master = claimsOf((await issueToken(SANDBOX.master.clientId, SANDBOX.master.apiKey)).body.auth_token);
    expect(master).toMatchObject({
      entity_id: SANDBOX_SEED_DEFAULTS.master.accountId,
      short_entity_id: SANDBOX_SEED_DEFAULTS.master.shortReferenceId,
      parent_entity_id: '0',
      client_id: SANDBOX.master.clientId,
      api_version: 'V1.0',
    });
    expect(typeof master.bus_type).toBe('string');
    const sub = claimsOf((await issueToken(SANDBOX.sub1.clientId, SANDBOX.sub1.apiKey)).body.auth_token);
    expect(sub.parent_entity_id).toBe(SANDBOX_SEED_DEFAULTS.master.accountId);
  });

  it('refuses a wrong key and missing headers with 401 in envelope A', async () => {
    const wrong = await issueToken(SANDBOX.master.clientId, 'sk_wrong_key_000000000000');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ type: 'unauthorized_error', code: 'unauthorized_error' });
    const unknown = await issueToken('pg_nobody', SANDBOX.master.apiKey);
    expect(unknown.body).toEqual(wrong.body);
    const missing = await api('POST', '/v1/connect/token', { idempotencyKey: null });
    expect(missing.status).toBe(401);
    expect(isEnvelope(missing.body)).toBe(true);
  });
});

describe('token use', () => {
  it('accepts the token with and without the Bearer prefix', async () => {
    const token = await tokenFor(SANDBOX.master);
    const bearer = await api('GET', LIST, { headers: { 'x-auth-token': `Bearer ${token}` } });
    const bare = await api('GET', LIST, { headers: { 'x-auth-token': token } });
    expect(bearer.status).toBe(200);
    expect(bare.status).toBe(200);
  });

  it('answers an expired token with 401 "Token expired" so the SDKs refresh silently', async () => {
    const token = await tokenFor(SANDBOX.master);
    const claims = claimsOf(token);
    const secret = appSchemas().gateway.JWT_SECRET.default as string;
    const expired = jwt.sign({ ...claims, iat: 1_600_000_000, exp: 1_600_000_060 }, secret, { algorithm: 'HS256' });
    const response = await api('GET', LIST, { headers: { 'x-auth-token': `Bearer ${expired}` } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ type: 'unauthorized_error', code: 'unauthorized_error', message: 'Token expired' });
  });

  it('refuses a forged or malformed token without saying why in detail', async () => {
    const token = await tokenFor(SANDBOX.master);
    const forged = `${token.slice(0, -4)}AAAA`;
    for (const value of [forged, 'not-a-jwt', 'Bearer ', '']) {
      const response = await api('GET', LIST, { headers: { 'x-auth-token': value } });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ type: 'unauthorized_error' });
    }
  });

  it('accepts and ignores x-idempotency-key on GET, as the SDKs send one on every request', async () => {
    const token = await tokenFor(SANDBOX.master);
    const first = await api('GET', LIST, { token, headers: { 'x-idempotency-key': '0b7c3a5e-9a55-4c57-9d4b-8f0a4f5d2e11' } });
    const again = await api('GET', LIST, { token, headers: { 'x-idempotency-key': '0b7c3a5e-9a55-4c57-9d4b-8f0a4f5d2e11' } });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get('x-idempotent-replayed')).toBeNull();
  });
});

describe('keys', () => {
  it('answers 401 "IP not allowed" for a key whose allow-list excludes the caller', async () => {
    const key = await withOperatorBus((bus) => createKey(bus, SANDBOX.sub2.accountId, { ip_allowlist: ['203.0.113.7'] }));
    const response = await issueToken(key.client_id, key.api_key);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ type: 'unauthorized_error', code: 'unauthorized_error', message: 'IP not allowed' });
  });

  it('lets a key from an allowed range in', async () => {
    const key = await withOperatorBus((bus) => createKey(bus, SANDBOX.sub2.accountId, { ip_allowlist: ['127.0.0.0/8', '::1'] }));
    const response = await issueToken(key.client_id, key.api_key);
    expect(response.status).toBe(200);
  });

  it('makes a revoked key and the tokens issued before fail on the very next request', async () => {
    const key = await withOperatorBus((bus) => createKey(bus, SANDBOX.sub2.accountId));
    const token = (await issueToken(key.client_id, key.api_key)).body.auth_token;
    expect((await api('GET', LIST, { token })).status).toBe(200);
    await withOperatorBus((bus) => revokeKey(bus, key.key_id));
    const after = await api('GET', LIST, { token });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ type: 'unauthorized_error', message: 'API key revoked' });
    const reissue = await issueToken(key.client_id, key.api_key);
    expect(reissue.status).toBe(401);
  });

  it('leaves the idempotency key of a request refused by authentication free (the claim rides on its round trip)', async () => {
    const key = await withOperatorBus((bus) => createKey(bus, SANDBOX.sub2.accountId));
    const token = (await issueToken(key.client_id, key.api_key)).body.auth_token;
    await withOperatorBus((bus) => revokeKey(bus, key.key_id));
    const idempotencyKey = randomUUID();
    const refused = await api('POST', '/v1/diagnostics/echo', { token, idempotencyKey, body: {} });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ message: 'API key revoked' });
    // The same account and key with a valid token runs, neither replayed nor "being processed".
    const retried = await api('POST', '/v1/diagnostics/echo', { token: await tokenFor(SANDBOX.sub2), idempotencyKey, body: {} });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('x-idempotent-replayed')).toBeNull();
    expect(retried.body).toMatchObject({ account_id: SANDBOX.sub2.accountId });
  });
});

describe('rate limiting', () => {
  it('answers a burst over the per-account limit with real HTTP 429 and Retry-After', async () => {
    const gateway = await startExtraInstance('gateway', 90, { RATE_LIMIT_PER_SECOND: '10' });
    const token = await tokenFor(SANDBOX.sub1);
    const url = `http://127.0.0.1:${gateway.port}/api/v1/accounts?page_size=1`;
    const responses = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const response = await fetch(url, { headers: { 'x-auth-token': `Bearer ${token}` } });
        return { status: response.status, headers: response.headers, body: await response.json() };
      }),
    );
    await stopApps([gateway]);
    const limited = responses.filter((response) => response.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0].headers.get('retry-after')).toMatch(/^\d+$/);
    expect(isEnvelope(limited[0].body)).toBe(true);
    // The per-account limit answers envelope A (docs/gateway.md); the per-card limits answer envelope B.
    expect(limited[0].body).toEqual({ type: 'invalid_request_error', code: 'rate_limited', message: 'Request is too frequent' });
    expect(responses.every((response) => response.status === 429 || response.status === 400)).toBe(true);
  });
});
