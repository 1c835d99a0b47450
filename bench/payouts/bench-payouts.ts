import { randomUUID } from 'node:crypto';
import { Ledger } from '@paygrid/ledger';
import { createDataSource } from '@paygrid/platform';
import { assertLoopback, issueToken } from '../acquiring/bench-acquiring';
import { closedLoop, round, summarise } from '../stats';

/**
 * Payouts benchmarks, each also as a ratio of the Postgres baseline (`postgres_commit`, a create-like
 * transaction on this machine):
 *
 * - payout create through the gateway: what a merchant's SDK sends (token, x-client-id, a fresh
 *   idempotency key), the ledger reserve, the payout row and its event in one transaction, against the
 *   sandbox master's available balance (funded first by card payments that settle);
 * - ledger postings: one capture entry (two postings) per committed transaction, straight on the payouts
 *   database through libs/ledger, each worker on a merchant of its own (no shared row), so the figure is
 *   the ledger's own cost per entry.
 *
 * Loopback only, bounded in time. Sizes: PAYOUTS_BENCH_SECONDS (default 10), PAYOUTS_BENCH_CONCURRENCY
 * (default 16; the ledger bench uses 8 clients like the baseline).
 */
const LEDGER_CLIENTS = 8;

export async function runPayoutBench(gateway: string, credentials: { clientId: string; apiKey: string }): Promise<Record<string, number>> {
  const seconds = Number(process.env.PAYOUTS_BENCH_SECONDS ?? 10);
  const concurrency = Number(process.env.PAYOUTS_BENCH_CONCURRENCY ?? 16);
  const api = `${gateway.replace(/\/+$/, '')}/api`;
  assertLoopback(api);
  const token = await issueToken(api, credentials);
  const headers = { 'content-type': 'application/json', 'x-auth-token': `Bearer ${token}`, 'x-client-id': credentials.clientId };
  const post = (path: string, body: unknown) =>
    fetch(`${api}${path}`, { method: 'POST', headers: { ...headers, 'x-idempotency-key': randomUUID() }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });

  // Funds: enough settled money that no payout of the run is refused for the balance.
  for (let i = 0; i < 5; i += 1) {
    const paid = await post('/v2/payment_intents/create', {
      amount: '1000.00',
      currency: 'USD',
      merchant_order_id: `bench-fund-${randomUUID().slice(0, 12)}`,
      description: 'Benchmark funds',
      return_url: 'https://shop.example/return',
      payment_method: { card: { card_number: '4242424242424242', expiry_month: '12', expiry_year: String(new Date().getUTCFullYear() + 2), cvc: '123' } },
    });
    if (paid.status !== 200) throw new Error(`funding payment refused: ${paid.status}`);
  }
  await waitForAvailable(api, headers, 5000);

  const createPayout = async () => {
    const response = await post('/v2/payment/payout/create', { payout_currency: 'USD', payout_amount: '0.01', statement_descriptor: 'BENCH' });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`payout refused: ${response.status}`);
  };
  for (let i = 0; i < 20; i += 1) await createPayout();
  const run = await closedLoop(concurrency, seconds * 1000, createPayout);
  const latency = summarise(run.latencies);
  return {
    payouts_per_second: round(run.latencies.length / run.seconds, 1),
    p50_ms: latency.p50_ms,
    p99_ms: latency.p99_ms,
    errors: run.errors,
    concurrency,
  };
}

export async function runLedgerBench(databaseUrl: string): Promise<Record<string, number>> {
  const seconds = Number(process.env.PAYOUTS_BENCH_SECONDS ?? 10);
  const dataSource = createDataSource({ url: databaseUrl, app: 'bench-ledger', poolSize: LEDGER_CLIENTS });
  await dataSource.initialize();
  const ledger = new Ledger({ negativeBuckets: ['card_network'] });
  const run = randomUUID().slice(0, 8);
  let next = 0;
  try {
    const worker = () => {
      const merchant = `bench-ledger-${run}-${next % LEDGER_CLIENTS}`;
      const reference = `bench:${run}:${(next += 1)}`;
      return dataSource.transaction((manager) =>
        ledger.post(manager, {
          reference,
          kind: 'payment.captured',
          postings: [
            { ownerId: merchant, currency: 'USD', bucket: 'card_network', amountMinor: -1050n },
            { ownerId: merchant, currency: 'USD', bucket: 'pending', amountMinor: 1050n },
          ],
        }),
      );
    };
    const result = await closedLoop(LEDGER_CLIENTS, seconds * 1000, worker);
    const latency = summarise(result.latencies);
    const entries = result.latencies.length / result.seconds;
    return {
      entries_per_second: round(entries, 1),
      postings_per_second: round(entries * 2, 1),
      p50_ms: latency.p50_ms,
      p99_ms: latency.p99_ms,
      errors: result.errors,
      concurrency: LEDGER_CLIENTS,
    };
  } finally {
    await dataSource.destroy();
  }
}

async function waitForAvailable(api: string, headers: Record<string, string>, minimum: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${api}/v2/payment/balances/USD`, { headers });
    const body = (await response.json()) as { available_balance?: string };
    if (Number(body.available_balance ?? 0) >= minimum) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the funding payments did not settle within 60 s');
}
