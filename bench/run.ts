import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SANDBOX_SEED_DEFAULTS } from '@paygrid/contracts';
import {
  appDatabaseUrl,
  assertPortsFree,
  launchApps,
  provideInfrastructure,
  redisUrlOnDatabase,
  REPO_ROOT,
  RunningApp,
  StackSettings,
  stopApps,
  waitUntilReady,
} from '@paygrid/local-stack';
import { deleteStackTopics, KafkaNames } from '@paygrid/platform';
import { benchKafkaRoundTrip, benchPostgresCommit } from './baselines';
import { benchAuthenticatedIdempotentEcho, benchHttpNoop } from './http-benches';
import { runAcquiringBench } from './acquiring/bench-acquiring';
import { runWebhookBench } from './webhooks/bench-webhooks';
import { runIssuingBench } from './issuing/bench-issuing';
import { runAuthorizationBench } from './issuing/bench-authorizations';
import { runLedgerBench, runPayoutBench } from './payouts/bench-payouts';

/**
 * `npm run bench`: every benchmark in one run on this machine, against the real Postgres, Kafka and
 * Redis, with the whole stack started on its own ports (3200–3205), databases (`*_bench`), Kafka topics
 * and groups (KAFKA_PREFIX `paygrid-bench-<run>`, deleted at the end) and Redis logical database. Results
 * go to bench/results/ as JSON (latest.json and a dated copy) and a readable table (latest.md).
 * Figures are this machine's: compare runs on the same machine, not across machines.
 */
const say = (line: string) => process.stdout.write(`bench  ${line}\n`);
type Section = Record<string, number | string>;

async function main(): Promise<void> {
  const results: Record<string, Section> = {};
  const kafkaPrefix = `paygrid-bench-${Date.now().toString(36)}`;
  const infrastructure = await provideInfrastructure(say, '_bench', { recreateDatabases: true, kafkaPrefix });
  let apps: RunningApp[] = [];
  try {
    say('postgres: create-like transaction (idempotency row + insert + outbox row), 8 clients, 10 s');
    results.postgres_commit = await benchPostgresCommit(appDatabaseUrl(settingsFor(infrastructure, kafkaPrefix), 'paygrid_payouts'));
    say('kafka: request/reply round trip');
    results.kafka_request_reply = await benchKafkaRoundTrip(infrastructure.kafkaBrokers, kafkaPrefix);

    const settings = settingsFor(infrastructure, kafkaPrefix);
    await assertPortsFree(settings);
    apps = launchApps(settings, () => undefined);
    await waitUntilReady(apps, 120_000);
    const gateway = `http://127.0.0.1:${3000 + settings.portOffset}`;
    const token = await issueToken(gateway);

    say('http: no-op through the gateway (GET /health/live), 16 connections, 10 s');
    results.http_noop = { ...(await benchHttpNoop(gateway)) };
    say('http: authenticated idempotent echo (POST /api/v1/diagnostics/echo), 16 connections, 10 s');
    results.gateway_authenticated_idempotent = { ...(await benchAuthenticatedIdempotentEcho(gateway, token)) };
    results.gateway_own_cost = {
      added_p50_ms: Number(results.gateway_authenticated_idempotent.p50_ms) - Number(results.http_noop.p50_ms),
      throughput_ratio: Number(
        (Number(results.gateway_authenticated_idempotent.requests_per_second) / Number(results.http_noop.requests_per_second)).toFixed(3),
      ),
    };
    await optional('acquiring: create intent with card (auto-capture)', async () => {
      results.acquiring_create_intent = await runAcquiringBench(gateway, {
        clientId: SANDBOX_SEED_DEFAULTS.master.clientId,
        apiKey: SANDBOX_SEED_DEFAULTS.master.apiKey,
      });
      results.acquiring_create_intent.vs_postgres_commit_rate = Number(
        (Number(results.acquiring_create_intent.acquiring_create_intent_per_second ?? 0) / Number(results.postgres_commit.transactions_per_second)).toFixed(3),
      );
    });
    await optional('issuing: card create and recharge', async () => {
      results.issuing = await runIssuingBench(gateway, token);
      const postgres = Number(results.postgres_commit.transactions_per_second);
      results.issuing.card_create_vs_postgres_commit_rate = Number((Number(results.issuing.issuing_card_create_per_second) / postgres).toFixed(3));
      results.issuing.recharge_vs_postgres_commit_rate = Number((Number(results.issuing.issuing_recharge_per_second) / postgres).toFixed(3));
    });
    const vsPostgres = (rate: unknown) => Number((Number(rate ?? 0) / Number(results.postgres_commit.transactions_per_second)).toFixed(3));
    await optional('payouts: create payout through the gateway (funds reserved in the ledger)', async () => {
      results.payout_create = await runPayoutBench(gateway, {
        clientId: SANDBOX_SEED_DEFAULTS.master.clientId,
        apiKey: SANDBOX_SEED_DEFAULTS.master.apiKey,
      });
      results.payout_create.vs_postgres_commit_rate = vsPostgres(results.payout_create.payouts_per_second);
    });
    await optional('ledger: capture entries (2 postings each) committed on the payouts database, 8 clients', async () => {
      results.ledger_postings = await runLedgerBench(appDatabaseUrl(settings, 'paygrid_payouts'));
      results.ledger_postings.vs_postgres_commit_rate = vsPostgres(results.ledger_postings.entries_per_second);
    });
    await optional('issuing: simulated card authorizations (hold in the ledger + clearing jobs), peak and half-peak', async () => {
      results.issuing_authorizations = await runAuthorizationBench(gateway, token);
      results.issuing_authorizations.vs_postgres_commit_rate = vsPostgres(results.issuing_authorizations.authorizations_per_second);
    });
    await optional('webhooks: deliveries to a local receiver', async () => {
      results.webhook_delivery = await runWebhookBench();
    });
  } finally {
    await stopApps(apps);
    await deleteStackTopics(infrastructure.kafkaBrokers.split(','), new KafkaNames(kafkaPrefix)).catch(() => undefined);
    await infrastructure.release();
  }
  write(results);
}

/** The bench stack's Redis logical database (integration tests use 11, e2e 12). */
const BENCH_REDIS_DATABASE = 13;

function settingsFor(
  infrastructure: { kafkaBrokers: string; databaseServerUrl: string; redisUrl: string },
  kafkaPrefix: string,
): StackSettings {
  return {
    ...infrastructure,
    redisUrl: redisUrlOnDatabase(infrastructure.redisUrl, BENCH_REDIS_DATABASE),
    portOffset: 200,
    databaseSuffix: '_bench',
    kafkaPrefix,
    logLevel: 'warn',
    logSink: { directory: path.join(REPO_ROOT, 'tmp/bench-logs') },
    // The rate limit would cap the load generator, not measure the gateway.
    extraEnv: { NODE_ENV: 'test', RATE_LIMIT_PER_SECOND: '1000000' },
  };
}

async function issueToken(gateway: string): Promise<string> {
  const response = await fetch(`${gateway}/api/v1/connect/token`, {
    method: 'POST',
    headers: { 'x-client-id': SANDBOX_SEED_DEFAULTS.master.clientId, 'x-api-key': SANDBOX_SEED_DEFAULTS.master.apiKey },
  });
  const body = (await response.json()) as { auth_token: string };
  return body.auth_token;
}

async function optional(name: string, run: () => Promise<void>): Promise<void> {
  say(name);
  try {
    await run();
  } catch (error) {
    say(`  skipped: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function write(results: Record<string, Section>): void {
  const directory = path.join(REPO_ROOT, 'bench/results');
  mkdirSync(directory, { recursive: true });
  const document = { machine: machine(), recorded_at: new Date().toISOString(), results };
  const json = `${JSON.stringify(document, null, 2)}\n`;
  writeFileSync(path.join(directory, 'latest.json'), json);
  writeFileSync(path.join(directory, `${document.recorded_at.slice(0, 10)}.json`), json);
  const lines = ['| benchmark | figure | value |', '|---|---|---|'];
  for (const [section, figures] of Object.entries(results)) {
    for (const [name, value] of Object.entries(figures)) lines.push(`| ${section} | ${name} | ${value} |`);
  }
  const table = `# Benchmarks (${document.recorded_at}, ${document.machine})\n\n${lines.join('\n')}\n`;
  writeFileSync(path.join(directory, 'latest.md'), table);
  process.stdout.write(`\n${table}\nwritten to bench/results/latest.json and latest.md\n`);
}

function machine(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const os = require('node:os') as typeof import('node:os');
  return `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`;
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
