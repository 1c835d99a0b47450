import { SecureDetailsView } from '@paygrid/contracts';
import { api, SANDBOX, tokenFor } from '../support/api-client';
import { Issuer } from './support/issuing-e2e';

/**
 * Sensitive card details and PAN tokens (wire-compat §11.8, decisions §2 and §4): the key's permission (403
 * for a sub-account key), the per-card limit of 10 a minute (HTTP 429, envelope B, Retry-After), and the full
 * number only in this one response.
 */
describe('sensitive card details', () => {
  let issuer: Issuer;

  beforeAll(async () => {
    issuer = await Issuer.of(SANDBOX.master);
  }, 60_000);

  it('shows the full number, CVV and expiry, ten times a minute per card, then answers 429 with Retry-After', async () => {
    const cardId = await issuer.activeCard();
    const card = await issuer.card(cardId);
    const answers = [];
    for (let call = 0; call < 11; call += 1) answers.push(await issuer.get<SecureDetailsView>(`/cards/${cardId}/secure`));
    for (const answer of answers.slice(0, 10)) {
      expect(answer.status).toBe(200);
      expect(answer.body.card_number).toMatch(/^\d{16}$/);
      expect(answer.body.card_number.slice(-4)).toBe(card.card_number.slice(-4));
      expect(answer.body.cvv).toMatch(/^\d{3}$/);
      expect(answer.body.expire_date).toMatch(/^\d{2}\/\d{2}$/);
    }
    expect(answers[10].status).toBe(429);
    expect(answers[10].body).toEqual({ code: 429, message: 'Request is too frequent' });
    expect(Number(answers[10].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(answers[10].headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // The PAN token shares the card's window: this card is spent for the minute.
    expect((await issuer.post(`/cards/${cardId}/token`, {})).status).toBe(429);
  }, 60_000);

  it('mints short-lived PAN tokens', async () => {
    const cardId = await issuer.activeCard();
    const token = await issuer.post<{ token: string; expires_in: number; expires_at: string }>(`/cards/${cardId}/token`, {});
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({ token: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/), expires_in: 60 });
    expect(Date.parse(token.body.expires_at)).toBeGreaterThan(Date.now());
  }, 60_000);

  it('answers 403 forbidden to a key without the sensitive-details permission', async () => {
    const sub = await Issuer.of(SANDBOX.sub1);
    const cardId = await sub.activeCard();
    const token = await tokenFor(SANDBOX.sub1);
    for (const [method, path] of [
      ['GET', `/v1/issuing/cards/${cardId}/secure`],
      ['POST', `/v1/issuing/cards/${cardId}/token`],
    ] as const) {
      const answer = await api(method, path, { token, body: method === 'POST' ? {} : undefined });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ type: 'unauthorized_error', code: 'forbidden' });
    }
  }, 60_000);

  it('refuses a card whose status does not allow it', async () => {
    const cardId = await issuer.activeCard();
    expect((await issuer.post(`/cards/${cardId}/status`, { card_status: 'CANCELLED' })).status).toBe(200);
    const answer = await issuer.get(`/cards/${cardId}/secure`);
    expect(answer).toMatchObject({ status: 400, body: { type: 'card_error', code: 'status_not_supported' } });
  }, 60_000);
});
