import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import { SANDBOX_SEED_DEFAULTS } from '@paygrid/contracts';
import {
  appDatabaseUrl,
  appsSchedulingName,
  assertPortsFree,
  launchApps,
  provideInfrastructure,
  REPO_ROOT,
  RunningApp,
  StackSettings,
  stopApps,
  waitUntilReady,
} from '@paygrid/local-stack';
import { APP_CATALOG, deleteStackTopics, KafkaNames } from '@paygrid/platform';
import { benchKafkaRoundTrip, benchPostgresCommit } from './baselines';
import { benchAuthenticatedIdempotentEcho, benchHttpNoop } from './http-benches';
import { runCreateLoad } from './acquiring/create-load';
import { CpuGroup, idleCpuRate, settled, stackCpuGroups } from './process-cpu';
import { c16Reading, c16ReadingLine, evaluateTargets, targetTable } from './targets';
import { SectionName, selectedSections } from './sections';
import { runWebhookBench } from './webhooks/bench-webhooks';
import { runIssuingBench } from './issuing/bench-issuing';
import { runAuthorizationBench } from './issuing/bench-authorizations';
import { runLedgerBench, runPayoutBench } from './payouts/bench-payouts';
import { BENCH_REDIS_DATABASE, benchRedisUrl, emptyBenchRedis } from './bench-redis';
import { CHUNK_KINDS, CpuSpeedProbe, speedFigureName } from './cpu-probe';

/**
 * `npm run bench`: every benchmark in one run on this machine, against the real Postgres, Kafka and
 * Redis, with the whole stack started on its own ports (3200–3205), databases (`*_bench`), Kafka topics
 * and groups (KAFKA_PREFIX `paygrid-bench-<run>`, deleted at the end) and Redis logical database. Results
 * go to bench/results/ as JSON (latest.json and a dated copy) and a readable table (latest.md), issue 12's
 * targets (targets.ts) first, each with its figure, ratio, threshold and PASS/FAIL.
 *
 * `npm run bench -- --only acquiring[,http,…]` runs those sections alone (plus the Postgres baseline every
 * ratio needs) and writes bench/results/only-<sections>.{json,md}, leaving latest.* to whole runs.
 * Figures are this machine's: compare runs on the same machine, not across machines.
 */
const say = (line: string) => process.stdout.write(`bench  ${line}\n`);
type Section = Record<string, number | string>;

/**
 * Sections that need the whole stack running (the others bring what they need). The ledger's entries are
 * written straight to the payouts database, whose schema the payouts app creates at boot: alone, it found no
 * tables and measured nothing.
 */
const STACK_SECTIONS: SectionName[] = ['http', 'acquiring', 'issuing', 'authorizations', 'payouts', 'ledger'];

async function main(): Promise<void> {
  const only = selectedSections(process.argv.slice(2));
  const selected = (name: SectionName) => only === null || only.includes(name);
  const results: Record<string, Section> = {};
  // The machine's speed in the windows it is read for (cpu-probe.ts).
  const cpuSpeed = new CpuSpeedProbe();
  const kafkaPrefix = `paygrid-bench-${Date.now().toString(36)}`;
  const infrastructure = await provideInfrastructure(say, '_bench', { recreateDatabases: true, kafkaPrefix });
  let apps: RunningApp[] = [];
  let cpuGroups: CpuGroup[] = [];
  try {
    const emptied = await emptyBenchRedis(infrastructure.redisUrl);
    say(`redis database ${BENCH_REDIS_DATABASE} emptied (${emptied} keys of earlier runs)`);
    // Always: every ratio to Postgres needs it.
    say('postgres: create-like transaction (idempotency row + insert + outbox row), 8 clients, 10 s');
    const baselineStart = Date.now();
    results.postgres_commit = await cpuSpeed.during(() =>
      benchPostgresCommit(appDatabaseUrl(settingsFor(infrastructure, kafkaPrefix), 'paygrid_payouts')),
    );
    Object.assign(results.postgres_commit, cpuSpeed.between(baselineStart, Date.now()));
    if (selected('baselines')) {
      say('kafka: request/reply round trip');
      results.kafka_request_reply = await benchKafkaRoundTrip(infrastructure.kafkaBrokers, kafkaPrefix);
    }

    const settings = settingsFor(infrastructure, kafkaPrefix);
    if (STACK_SECTIONS.some(selected)) {
      await assertPortsFree(settings);
      apps = launchApps(settings, () => undefined);
      await waitUntilReady(apps, 120_000);
      cpuGroups = stackCpuGroups(apps.map((app) => ({ name: app.name, pid: app.process.pid })), settings.databaseSuffix);
      results.stack_idle = await measureIdleStack(apps, cpuGroups);
    }
    const gateway = `http://127.0.0.1:${3000 + settings.portOffset}`;
    const master = { clientId: SANDBOX_SEED_DEFAULTS.master.clientId, apiKey: SANDBOX_SEED_DEFAULTS.master.apiKey };
    const vsPostgres = (rate: unknown) => Number((Number(rate ?? 0) / Number(results.postgres_commit.transactions_per_second)).toFixed(3));

    if (selected('http')) await runHttpSection(gateway, await issueToken(gateway), results);
    if (selected('acquiring'))
      await optional('acquiring: create intent with card (auto-capture), webhooks delivered to a local receiver', async () => {
        const sections = await cpuSpeed.during(() => runCreateLoad({
          gateway,
          credentials: master,
          cpuGroups,
          databases: { serverUrl: infrastructure.databaseServerUrl, suffix: settings.databaseSuffix },
          kafkaBrokers: infrastructure.kafkaBrokers,
          cpuSpeed: (fromMs, toMs) => cpuSpeed.between(fromMs, toMs),
          appMetricsPages: APP_CATALOG.map((app) => ({ app: app.name, url: `http://127.0.0.1:${app.port + settings.portOffset}/metrics` })),
          say,
        }));
        Object.assign(results, sections);
        results.acquiring_create_intent.vs_postgres_commit_rate = vsPostgres(results.acquiring_create_intent.acquiring_create_intent_per_second);
      });
    if (selected('issuing'))
      await optional('issuing: card create and recharge', async () => {
        results.issuing = await runIssuingBench(gateway, await issueToken(gateway));
        results.issuing.card_create_vs_postgres_commit_rate = vsPostgres(results.issuing.issuing_card_create_per_second);
        results.issuing.recharge_vs_postgres_commit_rate = vsPostgres(results.issuing.issuing_recharge_per_second);
      });
    if (selected('payouts'))
      await optional('payouts: create payout through the gateway (funds reserved in the ledger)', async () => {
        results.payout_create = await runPayoutBench(gateway, master);
        results.payout_create.vs_postgres_commit_rate = vsPostgres(results.payout_create.payouts_per_second);
      });
    if (selected('ledger'))
      await optional('ledger: capture entries (2 postings each) committed on the payouts database, 8 clients', async () => {
        results.ledger_postings = await runLedgerBench(appDatabaseUrl(settings, 'paygrid_payouts'));
        results.ledger_postings.vs_postgres_commit_rate = vsPostgres(results.ledger_postings.entries_per_second);
      });
    if (selected('webhooks'))
      await optional('webhooks: deliveries to a local receiver', async () => {
        results.webhook_delivery = await runWebhookBench();
      });
    if (selected('authorizations'))
      await optional('issuing: simulated card authorizations (hold in the ledger + clearing jobs), peak and half-peak', async () => {
        results.issuing_authorizations = await runAuthorizationBench(gateway, await issueToken(gateway));
        results.issuing_authorizations.vs_postgres_commit_rate = vsPostgres(results.issuing_authorizations.authorizations_per_second);
      });
  } finally {
    await stopApps(apps);
    await deleteStackTopics(infrastructure.kafkaBrokers.split(','), new KafkaNames(kafkaPrefix)).catch(() => undefined);
    await infrastructure.release();
  }
  results.cpu_speed = cpuSpeed.all();
  write(results, only);
}

/**
 * After boot: wait for the stack to settle (so boot work is not charged to the first benchmark), then what
 * each process burns while nothing is asked of it (consumers' long polls, reconcilers), in % of one core.
 */
async function measureIdleStack(apps: RunningApp[], groups: CpuGroup[]): Promise<Section> {
  const appGroups = groups.filter((group) => apps.some((app) => app.name === group.name));
  say('stack: waiting for boot work to settle, then 5 s of idle CPU per process');
  const settleWaitMs = await settled(appGroups, { belowPercent: 75, timeoutMs: 60_000 });
  const rates = await idleCpuRate(groups, 5000);
  const percent = (perMs: number) => Number((perMs * 100).toFixed(1));
  const appsTotal = appGroups.reduce((sum, group) => sum + (rates[group.name] ?? 0), 0);
  return {
    settle_wait_ms: settleWaitMs,
    apps_cpu_percent: percent(appsTotal),
    ...Object.fromEntries(Object.entries(rates).map(([name, perMs]) => [`cpu_percent_${name}`, percent(perMs)])),
  };
}

/** The gateway's own cost: no-op and authenticated idempotent echo, at 16 and at 64 connections. */
async function runHttpSection(gateway: string, token: string, results: Record<string, Section>): Promise<void> {
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
  say('http: no-op and authenticated idempotent echo at 64 connections, 10 s each');
  results.http_noop_c64 = { ...(await benchHttpNoop(gateway, 64)) };
  results.gateway_authenticated_idempotent_c64 = { ...(await benchAuthenticatedIdempotentEcho(gateway, token, 64)) };
}

function settingsFor(
  infrastructure: { kafkaBrokers: string; databaseServerUrl: string; redisUrl: string },
  kafkaPrefix: string,
): StackSettings {
  return {
    ...infrastructure,
    redisUrl: benchRedisUrl(infrastructure.redisUrl),
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

function write(results: Record<string, Section>, only: SectionName[] | null): void {
  const directory = path.join(REPO_ROOT, 'bench/results');
  mkdirSync(directory, { recursive: true });
  const outcomes = evaluateTargets(results);
  const targets = Object.fromEntries(
    outcomes.map(({ target, value, verdict }) => [target.name, { value: value === null ? null : Number(value.toFixed(3)), threshold: target.threshold, verdict }]),
  );
  const cores = cpus().length;
  const reading = c16Reading(results, cores);
  const c16_reading = reading && {
    core_seconds_per_second: Number(reading.coreSecondsPerSecond.toFixed(2)),
    cpu_budget_ms: Number(reading.cpuBudgetMs.toFixed(2)),
    ...(reading.kernelSharePercent ? { kernel_share_of_busy_percent: reading.kernelSharePercent } : {}),
  };
  const document = { machine: machine(), recorded_at: new Date().toISOString(), sections: only ?? 'all', targets, c16_reading, results };
  const json = `${JSON.stringify(document, null, 2)}\n`;
  const name = only === null ? 'latest' : `only-${only.join('-')}`;
  writeFileSync(path.join(directory, `${name}.json`), json);
  if (only === null) writeFileSync(path.join(directory, `${document.recorded_at.slice(0, 10)}.json`), json);
  const lines = ['| benchmark | figure | value |', '|---|---|---|'];
  for (const [section, figures] of Object.entries(results)) {
    for (const [figure, value] of Object.entries(figures)) lines.push(`| ${section} | ${figure} | ${value} |`);
  }
  const heading = `# Benchmarks (${document.recorded_at}, ${document.machine}${only ? `, sections: ${only.join(', ')}` : ''})`;
  const readingLine = c16ReadingLine(reading, cores);
  const notes = [readingLine, cpuSpeedLine(results)].filter(Boolean).join(' ');
  const targetsBlock = notes ? `${targetTable(outcomes)}\n\n${notes}` : targetTable(outcomes);
  const table = `${heading}\n\n## Targets (issue 12)\n\n${targetsBlock}\n\n## Figures\n\n${lines.join('\n')}\n`;
  writeFileSync(path.join(directory, `${name}.md`), table);
  process.stdout.write(`\n${lines.join('\n')}\n\n${targetsBlock}\n\nwritten to bench/results/${name}.json and ${name}.md\n`);
}

/** Under the targets: the machine's speed the absolute figures were taken at (§36). */
function cpuSpeedLine(results: Record<string, Section>): string {
  const windows = [
    ['postgres_commit', 'the baseline'],
    ['acquiring_create_intent', 'c16'],
    ['cpu_speed', 'the baseline and the acquiring section'],
  ];
  const chunkTimes = (section: string) => CHUNK_KINDS.map((kind) => results[section][speedFigureName(kind)]).join(' / ');
  const during = windows
    .filter(([section]) => results[section]?.cpu_speed_samples !== undefined)
    .map(([section, window]) => `${chunkTimes(section)} ms during ${window}`);
  if (during.length === 0) return '';
  return `CPU speed (§36; median CPU time of the probe's ${CHUNK_KINDS.join(' / ')} chunk, lower is faster): ${during.join(', ')}.`;
}

function machine(): string {
  // The apps' scheduling policy moves CPU per create by 10-18 % (docs/performance.md §25), and the dispatcher's
  // nice value the webhook latency (§28): part of the machine.
  return `${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}, ${appsSchedulingName()}`;
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
