import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';

/**
 * Acquiring benchmark: create-intent-with-card (auto-capture, the approved sandbox Visa) through the
 * gateway's HTTP API, exactly as a merchant's SDK sends it (token, x-client-id, a fresh idempotency key
 * per request). Each request spans the gateway (auth, validation, idempotency, card sealing), the Kafka
 * round trip and acquiring's two transactions around the processor call.
 *
 * - Throughput: CONCURRENCY closed-loop workers for DURATION; successful intents per second.
 * - Latency: p50 and p99 of every request of that run (ms), plus the error count.
 *
 * Loopback only and bounded in time and count. Sizes: ACQUIRING_BENCH_SECONDS (default 10),
 * ACQUIRING_BENCH_CONCURRENCY (default 16), ACQUIRING_BENCH_MAX_REQUESTS (default 20000). Run directly:
 * `npm run -s build && node -r ./deploy/local/register-paths.js dist/bench/acquiring/bench-acquiring.js
 * http://127.0.0.1:3000 <client id> <api key>` against a running stack.
 */
export interface AcquiringBenchOptions {
  seconds?: number;
  concurrency?: number;
  maxRequests?: number;
}

export async function runAcquiringBench(
  baseUrl: string,
  credentials: { clientId: string; apiKey: string },
  options: AcquiringBenchOptions = {},
): Promise<Record<string, number>> {
  const client = await createIntentClient(baseUrl, credentials);
  await client.warmUp(Math.min(20, options.maxRequests ?? 20));
  return runCreateIntents(client, options);
}

/** What a merchant's SDK holds: a token, and a create-intent call with a fresh idempotency key each time. */
export interface CreateIntentClient {
  api: string;
  headers: Record<string, string>;
  /** True when the intent was created and SUCCEEDED. */
  createIntent: () => Promise<boolean>;
  /** Connections, JIT, the services' first queries. */
  warmUp: (count: number) => Promise<void>;
}

export async function createIntentClient(
  baseUrl: string,
  credentials: { clientId: string; apiKey: string },
): Promise<CreateIntentClient> {
  const api = `${baseUrl.replace(/\/+$/, '')}/api`;
  assertLoopback(api);
  const token = await issueToken(api, credentials);
  const headers = {
    'content-type': 'application/json',
    'x-auth-token': `Bearer ${token}`,
    'x-client-id': credentials.clientId,
  };
  // undici's own request API on a keep-alive pool rather than fetch: fetch's WHATWG streams, Headers and
  // abort signal cost the load generator, which shares this 2-core machine with the stack it measures,
  // several times the CPU per request (docs/performance.md §22). Same requests on the wire.
  const apiUrl = new URL(api);
  const pool = new Pool(apiUrl.origin, { connections: 64 });
  const createPath = `${apiUrl.pathname}/v2/payment_intents/create`;
  const createIntent = async (): Promise<boolean> => {
    const response = await pool.request({
      path: createPath,
      method: 'POST',
      headers: { ...headers, 'x-idempotency-key': randomUUID() },
      body: JSON.stringify(benchIntent()),
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const body = (await response.body.json().catch(() => ({}))) as { intent_status?: string };
    return response.statusCode === 200 && body.intent_status === 'SUCCEEDED';
  };
  const warmUp = async (count: number) => {
    for (let i = 0; i < count; i += 1) await createIntent();
  };
  return { api, headers, createIntent, warmUp };
}

/** CONCURRENCY closed-loop workers for SECONDS (bounded by MAX_REQUESTS): rate, p50, p99, errors. */
export async function runCreateIntents(
  client: CreateIntentClient,
  options: AcquiringBenchOptions = {},
): Promise<Record<string, number>> {
  const seconds = options.seconds ?? Number(process.env.ACQUIRING_BENCH_SECONDS ?? 10);
  const concurrency = options.concurrency ?? Number(process.env.ACQUIRING_BENCH_CONCURRENCY ?? 16);
  const maxRequests = options.maxRequests ?? Number(process.env.ACQUIRING_BENCH_MAX_REQUESTS ?? 20_000);
  const latencies: number[] = [];
  let errors = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline && issued < maxRequests) {
      issued += 1;
      const begin = performance.now();
      const ok = await client.createIntent().catch(() => false);
      latencies.push(performance.now() - begin);
      if (!ok) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedSeconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const succeeded = latencies.length - errors;
  return {
    acquiring_create_intent_requests: latencies.length,
    acquiring_create_intent_errors: errors,
    acquiring_create_intent_per_second: round(succeeded / elapsedSeconds),
    acquiring_create_intent_p50_ms: round(percentile(latencies, 0.5)),
    acquiring_create_intent_p99_ms: round(percentile(latencies, 0.99)),
    acquiring_create_intent_concurrency: concurrency,
  };
}

function benchIntent() {
  return {
    amount: '12.34',
    currency: 'USD',
    merchant_order_id: `bench-${randomUUID().slice(0, 18)}`,
    description: 'Benchmark order',
    return_url: 'https://shop.example/return',
    payment_method: {
      card: {
        card_number: '4242424242424242',
        expiry_month: '12',
        expiry_year: String(new Date().getUTCFullYear() + 2),
        cvc: '123',
        auto_capture: true,
      },
    },
  };
}

export async function issueToken(api: string, credentials: { clientId: string; apiKey: string }): Promise<string> {
  const response = await fetch(`${api}/v1/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-id': credentials.clientId, 'x-api-key': credentials.apiKey },
  });
  const body = (await response.json()) as { auth_token?: string };
  if (response.status !== 200 || !body.auth_token) throw new Error(`token request failed with ${response.status}`);
  return body.auth_token;
}

/** The benchmark loads only servers on this machine. */
export function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(host)) throw new Error(`refusing to load ${host}: loopback addresses only`);
}

export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

if (require.main === module) {
  const [baseUrl = 'http://127.0.0.1:3000', clientId = 'pg_sandbox_master', apiKey = 'sk_sandbox_master_0123456789abcdef'] =
    process.argv.slice(2);
  runAcquiringBench(baseUrl, { clientId, apiKey }).then(
    (results) => process.stdout.write(`${JSON.stringify(results, null, 2)}\n`),
    (error: unknown) => {
      process.stderr.write(`acquiring bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
