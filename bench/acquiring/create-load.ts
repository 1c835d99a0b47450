import { randomUUID } from 'node:crypto';
import { machineCpuBetween, sampleMachineCpu } from '../machine-cpu';
import {
  CpuGroup,
  cpuBetween,
  cpuPerOperation,
  idleCpuRate,
  openCpuWindow,
  sampleCpu,
  windowPerOperation,
} from '../process-cpu';
import {
  checkpointServer,
  databaseWorkPerOperation,
  sampleServer,
  untilNoPendingJobRuns,
  vacuumAnalyzeStack,
  walPerOperation,
} from '../database-work';
import { censusSection, sampleStatements, statementShares } from '../statement-census';
import { sampleSwitches, switchesBetween, switchesPerOperation, switchRate } from '../process-switches';
import { offsetCommitRecords } from '../kafka-work';
import { AppMetricsPage, counterIn, gcPerOperation, readMetricsPages } from '../app-metrics';
import { round, summarise } from '../stats';
import { CreateIntentClient, createIntentClient, runCreateIntents } from './bench-acquiring';
import { Arrival, ReceiverThread } from './receiver-thread';
import { readWebhookStamps, relayBatchFigures, webhookStageFigures } from './webhook-stages';

/**
 * The acquiring section of `npm run bench` (issue 12's targets), on the bench's running stack:
 *
 * 1. two webhook endpoints of the sandbox master on a local receiver, both answering 200, so every event of
 *    every create is delivered twice, as on a merchant's stack; the receiver runs on a thread of its own
 *    (receiver-thread.ts), so its stamps do not wait for the load generator's event loop; then 20 s of
 *    create-intent at concurrency 16 to them, so the JIT has compiled the path before anything is measured
 *    (its CPU per create is recorded as `acquiring_create_intent_warm_up`, docs/performance.md §37);
 * 2. create-intent at concurrency 1: p50 end to end on an otherwise idle stack;
 * 3. create-intent at concurrency 16: rate, p50, p99, and two figures measured on the same run:
 *    - CPU per create: utime + stime of every stack process (process-cpu.ts) from the run's start until
 *      the last webhook of its creates arrived, less what each process burned per second while the stack
 *      stood idle for 3 s just before (polls, heartbeats, others' use of the shared broker), divided by
 *      the creates, so the event path's tail is counted and idle time is not (`_gross` keeps it);
 *    - commits and row writes per create in each service's database, the server's WAL kilobytes,
 *      full-page images and syncs per create (database-work.ts), and the records
 *      the stack's Kafka offset commits appended to `__consumer_offsets` per create (kafka-work.ts);
 *    - each app's garbage-collection pauses per create and its mean scavenge (app-metrics.ts);
 *    - webhook outbox commit → receiver, p99: for each delivery of an event created during the run, its
 *      arrival at the receiver minus the event's `create_time` (stamped in the transaction that commits
 *      it, a few ms before the commit, so the figure errs on the slow side), and the same path by stage
 *      (webhook-stages.ts: relay, broker, intake, post) from the stack's tables;
 * 4. the failing endpoint variant: the second endpoint now answers 500 to everything (the dispatcher
 *    retries it), and the concurrency-16 run again: its rate against step 3's is the target; each
 *    process's CPU per create over that run's window says who pays for the failing endpoint.
 *
 * The endpoints are deleted at the end, so the sections after this one deliver to nobody.
 */
export interface CreateLoadOptions {
  gateway: string;
  credentials: { clientId: string; apiKey: string };
  cpuGroups: CpuGroup[];
  /** The Postgres server and the stack's database suffix, for the commits and row writes per create. */
  databases: { serverUrl: string; suffix: string };
  /** The broker, for the offset commits per create. */
  kafkaBrokers: string;
  /**
   * Every app's /metrics, read before and after the c16 run (app-metrics.ts): the dispatcher's first attempts
   * (direct or through the queue), acquiring's outbox relay batches, every app's garbage-collection pauses.
   */
  appMetricsPages: AppMetricsPage[];
  /** The machine's speed over a window (cpu-probe.ts), read for the c16 run's. */
  cpuSpeed?: (fromMs: number, toMs: number) => Record<string, number>;
  say: (line: string) => void;
}

const OK_PATH = '/bench-ok';
/** How long the idle stack is watched for its CPU per second, just before the measured run. */
const IDLE_SAMPLE_MS = 3000;
const SECOND_PATH = '/bench-second';
/**
 * The concurrency-16 warm-up with both endpoints, before c1 and the measured run (§37). It does not finish V8's
 * tier-ups (TurboFan takes a function after ~11,000 calls); an 80 s one changed no figure readably (§45).
 */
const DEFAULT_WARM_UP_SECONDS = 20;

/** ACQUIRING_BENCH_WARM_UP_SECONDS: the warm-up's length, 20 s when unset. */
export function warmUpSeconds(raw = process.env.ACQUIRING_BENCH_WARM_UP_SECONDS): number {
  const value = (raw ?? '').trim();
  if (value === '') return DEFAULT_WARM_UP_SECONDS;
  const seconds = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(seconds >= 1 && seconds <= 600))
    throw new Error(`ACQUIRING_BENCH_WARM_UP_SECONDS must be whole seconds from 1 to 600, got "${value}"`);
  return seconds;
}

export async function runCreateLoad(options: CreateLoadOptions): Promise<Record<string, Record<string, number | string>>> {
  // Read first: a bad value stops the section before it has run anything.
  const warmUpLength = warmUpSeconds();
  const client = await createIntentClient(options.gateway, options.credentials);
  const receiver = await ReceiverThread.start();
  const arrivedOk = () => receiver.arrivals(OK_PATH).length;
  const endpoints: string[] = [];
  try {
    // The workload benches before issue 12 measured (no webhook endpoint, so no deliveries): the
    // pipeline's own cost, comparable across commits; the dispatcher's share is the difference.
    await client.warmUp(20);
    options.say('  create-intent, concurrency 16, 10 s, no webhook endpoint (the pre-issue-12 workload)');
    const withoutEndpoints = await runCreateIntents(client, { concurrency: 16 });

    // Statistics for the tables each phase filled (vacuumAnalyzeStack says why).
    const maintained = () => vacuumAnalyzeStack(options.databases.serverUrl, options.databases.suffix);
    // Each phase starts once the one before it is done, settlements included (due seconds after their
    // creates): c1 is a lone create on an otherwise idle stack, and each c16 run's CPU is its own creates'.
    const settledJobs = () => untilNoPendingJobRuns(options.databases.serverUrl, `paygrid_acquiring${options.databases.suffix}`);

    for (const path of [OK_PATH, SECOND_PATH]) endpoints.push(await createEndpoint(client, receiver.url(path)));
    const [okEndpoint] = endpoints;
    await settledJobs();
    const { autovacuum } = await maintained();
    if (!autovacuum) options.say('  postgres: autovacuum is off on this server; the bench runs VACUUM ANALYZE between its phases');
    await checkpointServer(options.databases.serverUrl);

    // The JIT's warm-up of the path the measured runs take, webhook deliveries included (docs/performance.md
    // §37): V8 compiles each hot function once per process, gradually, over the first few thousand creates; a
    // run measured before that charges the compiling to the creates. Its CPU is recorded, not a target.
    options.say(`  create-intent, concurrency 16, ${warmUpLength} s, both endpoints answering 200: the JIT's warm-up`);
    const closeWarmUpWindow = openCpuWindow(options.cpuGroups);
    const warmUp = await runCreateIntents(client, { concurrency: 16, seconds: warmUpLength });
    await drained(arrivedOk);
    const warmUpWindow = closeWarmUpWindow();

    const pendingBeforeC1 = await settledJobs();
    await drained(arrivedOk);
    await maintained();
    options.say('  create-intent, concurrency 1, 5 s');
    const single = await runCreateIntents(client, { concurrency: 1, seconds: 5 });

    options.say('  create-intent, concurrency 16, 10 s (CPU from /proc, webhook latency at the receiver)');
    const pendingBeforeC16 = await settledJobs();
    await drained(arrivedOk);
    await maintained();
    const idleSwitchesBefore = sampleSwitches(options.cpuGroups);
    const idleSwitchesStart = Date.now();
    const idlePerMs = await idleCpuRate(options.cpuGroups, IDLE_SAMPLE_MS);
    const idleSwitchesPerMs = switchRate(
      options.cpuGroups,
      idleSwitchesBefore,
      sampleSwitches(options.cpuGroups),
      Date.now() - idleSwitchesStart,
    );
    // Read outside the run's window (a scrape is work of the apps), as metricsAfter is.
    const metricsBefore = await readMetricsPages(options.appMetricsPages);
    const runStart = Date.now();
    const serverBefore = await sampleServer(options.databases.serverUrl, options.databases.suffix);
    const statementsBefore = await sampleStatements(options.databases.serverUrl, options.databases.suffix);
    const offsetsBefore = await offsetCommitRecords(options.kafkaBrokers);
    const switchesBefore = sampleSwitches(options.cpuGroups);
    const before = sampleCpu(options.cpuGroups);
    const machineBefore = sampleMachineCpu();
    const loadGeneratorBefore = process.cpuUsage();
    const loaded = await runCreateIntents(client, { concurrency: 16 });
    const runEnd = Date.now();
    await drained(arrivedOk);
    await receiver.settle();
    const after = sampleCpu(options.cpuGroups);
    const machineAfter = sampleMachineCpu();
    const loadGenerator = process.cpuUsage(loadGeneratorBefore);
    const switchesAfter = sampleSwitches(options.cpuGroups);
    const measuredMs = Date.now() - runStart;
    const serverAfter = await sampleServer(options.databases.serverUrl, options.databases.suffix);
    const statementsAfter = await sampleStatements(options.databases.serverUrl, options.databases.suffix);
    const offsetsAfter = await offsetCommitRecords(options.kafkaBrokers);
    const metricsAfter = await readMetricsPages(options.appMetricsPages);
    const firstAttemptsBefore = firstAttempts(metricsBefore);
    const firstAttemptsAfter = firstAttempts(metricsAfter);
    const creates = succeeded(loaded);
    const perCreate = (total: number) => (creates > 0 ? round(total / creates) : 0);
    const databaseWork = databaseWorkPerOperation(serverBefore.databases, serverAfter.databases, creates, options.databases.suffix);
    const used = cpuBetween(options.cpuGroups, before, after);
    const cpu = cpuPerOperation(options.cpuGroups, used, creates, { perMs: idlePerMs, runMs: measuredMs });
    const warmUpCpu = windowPerOperation(options.cpuGroups, warmUpWindow, succeeded(warmUp), idlePerMs);
    const wakeups = switchesPerOperation(
      options.cpuGroups,
      switchesBetween(options.cpuGroups, switchesBefore, switchesAfter),
      creates,
      { perMs: idleSwitchesPerMs, runMs: measuredMs },
    );
    const ofRun = receiver.arrivals(OK_PATH).filter((arrival) => arrival.createdAt >= runStart && arrival.createdAt <= runEnd);
    const webhook = summarise(ofRun.map((arrival) => arrival.at - arrival.createdAt));
    const webhookByEvent = webhookLatencyByEvent(ofRun);
    const stamps = await readWebhookStamps(options.databases.serverUrl, options.databases.suffix, okEndpoint, {
      fromMs: runStart,
      toMs: runEnd,
    });
    const webhookStages = {
      ...webhookStageFigures(stamps, new Map(ofRun.map((arrival) => [arrival.eventId, arrival.at]))),
      ...relayBatchFigures(stamps),
    };

    options.say('  create-intent, concurrency 16, 10 s, one endpoint answering 500 to everything');
    // As before the c16 run: the run it is compared with starts with no earlier settlement pending.
    const pendingBeforeFailing = await settledJobs();
    await maintained();
    await receiver.respond(SECOND_PATH, { status: 500, body: 'bench: failing on purpose' });
    // Who pays for the failing endpoint: each process's CPU per create over this run's window alone
    // (its retries go on after it; compare with step 3's figures, which run until the webhooks drained).
    const failingStatementsBefore = await sampleStatements(options.databases.serverUrl, options.databases.suffix);
    const closeFailingWindow = openCpuWindow(options.cpuGroups);
    const failing = await runCreateIntents(client, { concurrency: 16 });
    const failingCpu = windowPerOperation(options.cpuGroups, closeFailingWindow(), succeeded(failing), idlePerMs);
    const failingStatementsAfter = await sampleStatements(options.databases.serverUrl, options.databases.suffix);
    await receiver.settle();
    const failedAttempts = receiver.arrivals(SECOND_PATH).filter((arrival) => arrival.at >= runEnd).length;

    return {
      acquiring_create_intent_c1: {
        p50_ms: single.acquiring_create_intent_p50_ms,
        p99_ms: single.acquiring_create_intent_p99_ms,
        per_second: single.acquiring_create_intent_per_second,
        errors: single.acquiring_create_intent_errors,
        // The earlier run's settlements the bench waited for before this one (they used to run during it).
        job_runs_waited_for: pendingBeforeC1,
      },
      acquiring_create_intent: {
        ...loaded,
        ...cpu,
        // This process (the sixteen clients and the receiver's thread): not the stack's, so not in the CPU
        // per create, but it shares the two cores with the stack and so lowers the rate the stack can reach.
        cpu_ms_load_generator: perCreate((loadGenerator.user + loadGenerator.system) / 1000),
        // The receiver thread's nice value (receiver-thread.ts): -10 unless it may not be raised here.
        receiver_nice: receiver.nice,
        ...wakeups,
        ...gcPerOperation(metricsBefore, metricsAfter, creates),
        ...databaseWork,
        ...walPerOperation(serverBefore.wal, serverAfter.wal, creates),
        ...machineCpuBetween(machineBefore, machineAfter, creates),
        ...(options.cpuSpeed?.(runStart, runEnd) ?? {}),
        offset_commit_records_per_op: perCreate(offsetsAfter - offsetsBefore),
        webhook_deliveries_measured: webhook.count,
        webhook_commit_to_receiver_p50_ms: webhook.p50_ms,
        webhook_commit_to_receiver_p99_ms: webhook.p99_ms,
        ...webhookByEvent,
        ...webhookStages,
        postgres_autovacuum_on: autovacuum ? 1 : 0,
        // Queued: no direct-send slot or place in line was free, so the BullMQ path (seconds under load).
        webhook_first_attempts_direct: firstAttemptsAfter.direct - firstAttemptsBefore.direct,
        webhook_first_attempts_queued: firstAttemptsAfter.queued - firstAttemptsBefore.queued,
        // Each batch is a produce, and a fetch and an intake transaction for each consumer of the events.
        relay_batches_per_op_acquiring: perCreate(relayBatches(metricsAfter) - relayBatches(metricsBefore)),
        // c1's settlements the bench waited for before this run (they used to land in its CPU window).
        job_runs_waited_for: pendingBeforeC16,
      },
      // Only where the server keeps pg_stat_statements (statement-census.ts).
      ...(statementsBefore && statementsAfter
        ? {
            acquiring_create_intent_statements: censusSection(
              statementShares(statementsBefore, statementsAfter, creates, options.databases.suffix),
            ),
          }
        : {}),
      // The same census over the failing run's window (its retries' tail excluded, as its CPU's is).
      ...(failingStatementsBefore && failingStatementsAfter
        ? {
            acquiring_failing_endpoint_statements: censusSection(
              statementShares(failingStatementsBefore, failingStatementsAfter, succeeded(failing), options.databases.suffix),
            ),
          }
        : {}),
      acquiring_failing_endpoint: {
        ...failing,
        ...failingCpu,
        failing_endpoint_attempts: failedAttempts,
        job_runs_waited_for: pendingBeforeFailing,
      },
      acquiring_create_intent_no_endpoints: withoutEndpoints,
      // Measured as step 3 is (until its webhooks drained, less the idle burn), on the stack as it came from
      // the run without endpoints: what the same creates cost while the JIT still compiles their path.
      acquiring_create_intent_warm_up: { ...warmUp, ...warmUpCpu },
    };
  } finally {
    for (const endpointId of endpoints) await deleteEndpoint(client, endpointId).catch(() => undefined);
    await receiver.close();
  }
}

/** The creates of a run that succeeded. */
function succeeded(run: Record<string, number>): number {
  return run.acquiring_create_intent_requests - run.acquiring_create_intent_errors;
}

async function createEndpoint(client: CreateIntentClient, url: string): Promise<string> {
  const response = await fetch(`${client.api}/v1/webhooks/endpoints`, {
    method: 'POST',
    headers: { ...client.headers, 'x-idempotency-key': randomUUID() },
    body: JSON.stringify({ url, description: 'bench' }),
  });
  const body = (await response.json()) as { endpoint_id?: string };
  if (response.status !== 200 || !body.endpoint_id) throw new Error(`webhook endpoint refused: ${response.status}`);
  return body.endpoint_id;
}

async function deleteEndpoint(client: CreateIntentClient, endpointId: string): Promise<void> {
  await fetch(`${client.api}/v1/webhooks/endpoints/${endpointId}/delete`, {
    method: 'POST',
    headers: { ...client.headers, 'x-idempotency-key': randomUUID() },
    body: '{}',
  });
}

/** The dispatcher's `paygrid_webhook_first_attempts_total` by path (0 for a path not counted yet). */
function firstAttempts(pages: ReadonlyMap<string, string>): { direct: number; queued: number } {
  const text = pages.get('webhook-dispatcher') ?? '';
  const count = (path: string) => counterIn(text, 'paygrid_webhook_first_attempts_total', `path="${path}"`);
  return { direct: count('direct'), queued: count('queued') };
}

/** Acquiring's outbox relay batches so far. */
function relayBatches(pages: ReadonlyMap<string, string>): number {
  return counterIn(pages.get('acquiring') ?? '', 'paygrid_outbox_batches_total');
}

/**
 * Until the receiver got nothing new for a second (the pipeline has drained), within 60 s: a bench
 * measure, not a test, so "quiet for a second" is good enough.
 */
async function drained(arrivals: () => number): Promise<void> {
  const deadline = Date.now() + 60_000;
  let seen = -1;
  while (arrivals() !== seen && Date.now() < deadline) {
    seen = arrivals();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * The webhook latency's p50 and p99 per event name: where its tail is. A create's first two events are
 * stamped at its first record and relayed after its second (their wake-up is deferred to it), its
 * settlement's seconds later by a job: one p99 for all of them does not say which path is slow.
 */
export function webhookLatencyByEvent(arrivals: readonly Arrival[]): Record<string, number> {
  const byEvent = new Map<string, number[]>();
  for (const arrival of arrivals) {
    const latencies = byEvent.get(arrival.eventName) ?? [];
    latencies.push(arrival.at - arrival.createdAt);
    byEvent.set(arrival.eventName, latencies);
  }
  const figures: Record<string, number> = {};
  for (const [eventName, latencies] of [...byEvent].sort(([a], [b]) => a.localeCompare(b))) {
    const name = (eventName || 'unnamed').replace(/[^a-z0-9]+/gi, '_');
    const { p50_ms, p99_ms } = summarise(latencies);
    figures[`webhook_p50_ms_${name}`] = p50_ms;
    figures[`webhook_p99_ms_${name}`] = p99_ms;
  }
  return figures;
}
