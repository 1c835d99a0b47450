import { closedLoop, elapsedMs, round, summarise } from '../stats';
import { cardholder, sessionOf, until } from './bench-issuing';

/**
 * Card authorizations through the gateway (`POST /v1/simulation/issuing/authorization`, the real authorization
 * path: the card's row lock, its controls, the hold posted to the ledger, the row, its event and its clearing
 * job in one transaction, then the clearing jobs running beside the load).
 *
 * One ACTIVE card per worker, each recharged enough for the run: a card's authorizations are decided one after
 * another under its lock (what a network asks of one card is sequential too), so the load spreads over cards.
 * First the peak (closed loop, ISSUING_AUTH_BENCH_CONCURRENCY workers, default 16), then an open loop at half
 * that rate, where card networks' answer-time budget applies (issue 11 aims at p99 < 50 ms there).
 * Sizes: ISSUING_AUTH_BENCH_SECONDS (default 10).
 */
const AMOUNT = 0.01;
const FUNDS_PER_CARD = 5_000;

export async function runAuthorizationBench(
  gatewayBase: string,
  token: string,
  options: { seconds?: number; concurrency?: number } = {},
): Promise<Record<string, number>> {
  const seconds = options.seconds ?? Number(process.env.ISSUING_AUTH_BENCH_SECONDS ?? 10);
  const concurrency = options.concurrency ?? Number(process.env.ISSUING_AUTH_BENCH_CONCURRENCY ?? 16);
  const base = gatewayBase.replace(/\/+$/, '');
  const issuing = sessionOf(`${base}/api/v1/issuing`, token);
  const simulator = sessionOf(`${base}/api/v1/simulation/issuing`, token);
  const cards = await fundedCards(issuing, concurrency);

  let failures = 0;
  const authorize = async (cardId: string) => {
    const answer = await simulator.post('/authorization', {
      card_id: cardId,
      transaction_amount: AMOUNT,
      transaction_currency: 'USD',
      merchant_name: 'Bench Merchant',
      merchant_category_code: '5411',
      transaction_status: 'APPROVED',
    });
    if (answer.status !== 200) throw new Error(`authorization answered ${answer.status}`);
    if (answer.body.transaction_status !== 'APPROVED') failures += 1;
  };

  // Calls go round robin over the cards; two that meet on one card wait for each other's lock, as on a busy card.
  let turn = 0;
  const peak = await closedLoop(concurrency, seconds * 1000, () => authorize(cards[turn++ % cards.length]));
  const peakRate = peak.latencies.length / peak.seconds;
  const half = await openLoop(peakRate / 2, seconds * 1000, (index) => authorize(cards[index % cards.length]));
  const peakStats = summarise(peak.latencies);
  const halfStats = summarise(half.latencies);
  return {
    authorizations_per_second: round(peakRate),
    authorization_p50_ms: peakStats.p50_ms,
    authorization_p99_ms: peakStats.p99_ms,
    authorization_errors: peak.errors,
    half_peak_rate_per_second: round(half.latencies.length / half.seconds),
    half_peak_p50_ms: halfStats.p50_ms,
    half_peak_p99_ms: halfStats.p99_ms,
    half_peak_errors: half.errors,
    declined_unexpectedly: failures,
    concurrency,
  };
}

async function fundedCards(session: ReturnType<typeof sessionOf>, count: number): Promise<string[]> {
  const products = await session.get('/products?page_size=10');
  const product = (products.body.data as { product_id: string; card_bin: string; product_status: string }[]).find(
    (item) => item.card_bin === '491090' && item.product_status === 'ENABLED',
  );
  if (!product) throw new Error('the sandbox SHARE product is missing');
  const holder = await cardholder(session);
  await until(async () => (await session.get(`/cardholders/${holder}`)).body.cardholder_status === 'SUCCESS');
  const cards: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const created = await session.post('/cards', { card_currency: 'USD', cardholder_id: holder, card_product_id: product.product_id });
    if (created.status !== 200) throw new Error(`card create answered ${created.status}`);
    cards.push(created.body.card_id as string);
  }
  await until(async () => (await Promise.all(cards.map((id) => session.get(`/cards/${id}`)))).every((card) => card.body.card_status === 'ACTIVE'));
  const orders = await Promise.all(cards.map((id) => session.post(`/cards/${id}/recharge`, { amount: FUNDS_PER_CARD })));
  await until(async () =>
    (await Promise.all(orders.map((order) => session.get(`/card_orders/${order.body.card_order_id as string}`)))).every(
      (order) => order.body.order_status === 'SUCCESS',
    ),
  );
  return cards;
}

/** Starts one call every 1/rate seconds whatever the previous ones do (an open loop: latency is not hidden by waiting). */
async function openLoop(ratePerSecond: number, durationMs: number, work: (index: number) => Promise<unknown>) {
  const latencies: number[] = [];
  let errors = 0;
  const intervalMs = 1000 / Math.max(1, ratePerSecond);
  const started = process.hrtime.bigint();
  const calls: Promise<void>[] = [];
  for (let index = 0; elapsedMs(started) < durationMs; index += 1) {
    const begun = process.hrtime.bigint();
    calls.push(
      work(index).then(
        () => void latencies.push(elapsedMs(begun)),
        () => void (errors += 1),
      ),
    );
    const next = (index + 1) * intervalMs - elapsedMs(started);
    if (next > 0) await new Promise((resolve) => setTimeout(resolve, next));
  }
  await Promise.all(calls);
  return { latencies, errors, seconds: elapsedMs(started) / 1000 };
}
