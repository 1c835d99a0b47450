import { CardOrderView, sandboxPoolCard, SecureDetailsView } from '@paygrid/contracts';
import { waitFor } from '@paygrid/testing';
import { SANDBOX } from '../support/api-client';
import { CardDataSearch } from '../support/card-data-search';
import { queryE2eDatabase } from '../support/databases';
import { Issuer, issuingWebhooks } from './support/issuing-e2e';

/**
 * Architecture rule 7 for issuing: run a card's life through the API (create, recharge, withdraw, update,
 * list by number, sensitive details, PAN token, and a pool card's assignment and activation), then search every
 * place data lands (the issuing, gateway and webhook databases, every service log, every Kafka topic, every
 * Redis key, the webhook bodies) for the issued card's number and CVV, and for the pool card's. Their only
 * homes are the encrypted `*_ciphertext` columns of cards and pool_cards.
 */
const CIPHERTEXT_COLUMNS = ['cards.pan_ciphertext', 'cards.cvv_ciphertext', 'pool_cards.pan_ciphertext', 'pool_cards.cvv_ciphertext'];

async function searchEverywhere(search: CardDataSearch, webhookBodies: string[]): Promise<string[]> {
  return [
    ...(await search.searchDatabase('paygrid_issuing', CIPHERTEXT_COLUMNS)),
    ...(await search.searchDatabase('paygrid_gateway')),
    ...(await search.searchDatabase('paygrid_webhooks')),
    ...search.searchLogs(),
    ...webhookBodies.flatMap((body) => search.leaks(body).map((leak) => `webhook: ${leak}`)),
    ...(await search.searchKafka()),
    ...(await search.searchRedis()),
  ];
}

describe('issuing card data', () => {
  let issuer: Issuer;
  let webhooks: Awaited<ReturnType<typeof issuingWebhooks>>;

  beforeAll(async () => {
    issuer = await Issuer.of(SANDBOX.master);
    webhooks = await issuingWebhooks(issuer, '/issuing-card-data');
  }, 120_000);

  afterAll(async () => {
    await webhooks?.close();
  });

  it('keeps issued and pool card numbers and CVVs only in the encrypted columns', async () => {
    const cardId = await issuer.activeCard({ metadata: { purpose: 'audit' } });
    await issuer.settled(await issuer.ok(issuer.post<CardOrderView>(`/cards/${cardId}/recharge`, { amount: 20 })));
    await issuer.settled(await issuer.ok(issuer.post<CardOrderView>(`/cards/${cardId}/withdraw`, { amount: 5 })));
    expect((await issuer.post(`/cards/${cardId}`, { card_limit: 500 })).status).toBe(200);
    const secure = await issuer.ok(issuer.get<SecureDetailsView>(`/cards/${cardId}/secure`));
    expect((await issuer.post(`/cards/${cardId}/token`, {})).status).toBe(200);
    const listed = await issuer.ok(issuer.get<{ data: { card_id: string }[] }>(`/cards?card_number=${secure.card_number}`));
    expect(listed.data.map((card) => card.card_id)).toEqual([cardId]);
    // A refused request carrying the number must not echo it.
    const holder = await issuer.verifiedCardholder();
    const refused = await issuer.post('/cards/assign', { cardholder_id: holder, card_number: secure.card_number, card_currency: 'USD', card_mode: 'SHARE' });
    expect(refused.status).toBe(400);

    // A pool card: assigned, activated and shown once.
    let poolCardId: string | undefined;
    let pool = sandboxPoolCard(2, 0);
    const forSub = issuer.actingFor(SANDBOX.sub1.accountId);
    const subHolder = await forSub.verifiedCardholder();
    for (let sequence = 0; sequence < 10 && !poolCardId; sequence += 1) {
      pool = sandboxPoolCard(2, sequence);
      const answer = await forSub.post<{ card_id: string }>('/cards/assign', {
        cardholder_id: subHolder,
        card_number: pool.card_number,
        card_currency: 'SGD',
        card_mode: 'SHARE',
      });
      if (answer.status === 200) poolCardId = answer.body.card_id;
    }
    if (!poolCardId) throw new Error('the sandbox pool of sub-account one has no free card');
    expect((await forSub.post('/cards/activate', { card_id: poolCardId, activation_code: pool.activation_code, pin: '1357' })).status).toBe(200);
    const poolSecure = await forSub.ok(forSub.get<SecureDetailsView>(`/cards/${poolCardId}/secure`));
    expect(poolSecure.card_number).toBe(pool.card_number);

    await waitFor(() => webhooks.events().some((event) => event.event_name === 'card.update.succeeded' && event.source_id === cardId), {
      what: 'the card update webhook',
      timeoutMs: 30_000,
    });
    const [stored] = await queryE2eDatabase<{ pan_ciphertext: string; cvv_ciphertext: string }>(
      'paygrid_issuing',
      'SELECT pan_ciphertext, cvv_ciphertext FROM cards WHERE card_id = $1',
      [cardId],
    );
    expect(stored.pan_ciphertext).toMatch(/^v2\./);
    const bodies = webhooks.receiver.received().map((request) => request.rawBody);
    const issued = new CardDataSearch(secure.card_number, secure.cvv);
    expect(issued.leaks(`${stored.pan_ciphertext} ${stored.cvv_ciphertext} ${refused.text}`)).toEqual([]);
    expect(await searchEverywhere(issued, bodies)).toEqual([]);
    expect(await searchEverywhere(new CardDataSearch(pool.card_number, poolSecure.cvv), bodies)).toEqual([]);
  }, 300_000);
});
