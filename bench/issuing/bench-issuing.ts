import { randomInt, randomUUID } from 'node:crypto';
import { closedLoop, round, summarise } from '../stats';

/**
 * Issuing benchmark through the gateway's HTTP API, as the SDK's `client.issuing.*` sends it (token, a fresh
 * idempotency key per POST): card create (a CARD_CREATE order: the product row lock for the quota, a card
 * number minted and encrypted, the order and its durable job) and recharge (a card order whose acceptance
 * posts to the ledger, serialised on the account's issuing balance, its one hot row).
 *
 * Setup makes BENCH_CARDHOLDERS verified cardholders (the product allows 50 live cards each) and one ACTIVE
 * card per worker. Sizes: ISSUING_BENCH_SECONDS (default 10), ISSUING_BENCH_CONCURRENCY (default 16).
 */
const BENCH_CARDHOLDERS = 40;
const CARDS_PER_CARDHOLDER = 50;

export interface Session {
  post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  get(path: string): Promise<{ status: number; body: Record<string, unknown> }>;
}

export async function runIssuingBench(
  gatewayBase: string,
  token: string,
  options: { seconds?: number; concurrency?: number } = {},
): Promise<Record<string, number>> {
  const seconds = options.seconds ?? Number(process.env.ISSUING_BENCH_SECONDS ?? 10);
  const concurrency = options.concurrency ?? Number(process.env.ISSUING_BENCH_CONCURRENCY ?? 16);
  const session = sessionOf(`${gatewayBase.replace(/\/+$/, '')}/api/v1/issuing`, token);

  const products = await session.get('/products?page_size=10');
  const product = (products.body.data as { product_id: string; card_bin: string; product_status: string }[]).find(
    (item) => item.card_bin === '491090' && item.product_status === 'ENABLED',
  );
  if (!product) throw new Error('the sandbox SHARE product is missing');
  const cardholders = await Promise.all(Array.from({ length: BENCH_CARDHOLDERS }, () => cardholder(session)));
  await until(async () => {
    const states = await Promise.all(cardholders.map((id) => session.get(`/cardholders/${id}`)));
    return states.every((state) => state.body.cardholder_status === 'SUCCESS');
  });

  let created = 0;
  const createCard = async () => {
    const index = created;
    created += 1;
    if (index >= BENCH_CARDHOLDERS * CARDS_PER_CARDHOLDER) throw new Error('cardholder quotas spent');
    const answer = await session.post('/cards', {
      card_currency: 'USD',
      cardholder_id: cardholders[index % BENCH_CARDHOLDERS],
      card_product_id: product.product_id,
    });
    if (answer.status !== 200) throw new Error(`card create answered ${answer.status}`);
    return answer.body.card_id as string;
  };
  const createRun = await closedLoop(concurrency, seconds * 1000, createCard);

  const cards = await Promise.all(Array.from({ length: concurrency }, createCard));
  await until(async () => {
    const states = await Promise.all(cards.map((id) => session.get(`/cards/${id}`)));
    return states.every((state) => state.body.card_status === 'ACTIVE');
  });
  let turn = 0;
  const rechargeRun = await closedLoop(concurrency, seconds * 1000, async () => {
    const answer = await session.post(`/cards/${cards[turn++ % cards.length]}/recharge`, { amount: 1 });
    if (answer.status !== 200) throw new Error(`recharge answered ${answer.status}`);
  });

  const createStats = summarise(createRun.latencies);
  const rechargeStats = summarise(rechargeRun.latencies);
  return {
    issuing_card_create_per_second: round(createRun.latencies.length / createRun.seconds),
    issuing_card_create_p50_ms: createStats.p50_ms,
    issuing_card_create_p99_ms: createStats.p99_ms,
    issuing_card_create_errors: createRun.errors,
    issuing_recharge_per_second: round(rechargeRun.latencies.length / rechargeRun.seconds),
    issuing_recharge_p50_ms: rechargeStats.p50_ms,
    issuing_recharge_p99_ms: rechargeStats.p99_ms,
    issuing_recharge_errors: rechargeRun.errors,
    issuing_concurrency: concurrency,
  };
}

export function sessionOf(base: string, token: string): Session {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'x-auth-token': `Bearer ${token}`,
        ...(method === 'POST' ? { 'x-idempotency-key': randomUUID() } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
  };
  return { post: (path, body) => call('POST', path, body), get: (path) => call('GET', path) };
}

export async function cardholder(session: Session): Promise<string> {
  const tag = `${Date.now().toString(36)}${randomInt(1_000_000)}`;
  const answer = await session.post('/cardholders', {
    email: `bench.${tag}@example.com`,
    first_name: 'Bench',
    last_name: 'Holder',
    country_code: 'SG',
    phone_number: `+659${String(randomInt(10_000_000)).padStart(7, '0')}`,
    date_of_birth: '1985-03-01',
  });
  if (answer.status !== 200) throw new Error(`cardholder create answered ${answer.status}`);
  return answer.body.cardholder_id as string;
}

/** Polls (the sandbox's KYC and card orders complete on their own) with a deadline. */
export async function until(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('issuing bench setup did not finish in time');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
