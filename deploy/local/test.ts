import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './app-launcher';
import { provideInfrastructure } from './infrastructure';

/**
 * `npm test`: lint and type-check (side by side), then the three Jest tiers (unit; integration and e2e
 * against the real Postgres, Redis and Kafka, which this brings up, while the checks run, and stops again
 * if it started them; the e2e tier ends
 * with `paygrid ledger verify`, a row of its own), and one closing summary line of passed and failed
 * counts. Every step runs even if an earlier one failed, so one run shows everything that is wrong; the
 * exit code is non-zero if anything failed.
 *
 * It may run beside `npm start` on the same broker: every integration test file and the e2e run use a
 * Kafka prefix of their own (their own topics and groups), the e2e stack its own ports (3100–3105) and
 * databases (`*_e2e`), integration tests throwaway databases.
 */
interface StepResult {
  name: string;
  ok: boolean;
  passed: number;
  failed: number;
  skipped: number;
}

const say = (line: string) => process.stdout.write(`\n== ${line}\n`);
const bin = (name: string) => path.join(REPO_ROOT, 'node_modules/.bin', name);

/**
 * Runs a command to its end without blocking this process's event loop (the infrastructure's checks keep
 * their own clocks meanwhile). With `quiet`, its output is held and printed whole, under its heading, once
 * it ends: two checks that run side by side do not interleave their lines.
 */
function run(
  name: string,
  command: string,
  args: string[],
  options: { quiet?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<number | null> {
  if (!options.quiet) say(name);
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: options.env ?? process.env,
  });
  const held: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => held.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => held.push(chunk));
  return new Promise((resolve) => {
    child.once('error', (error) => held.push(Buffer.from(`${name}: ${error.message}\n`)));
    child.once('close', (status) => {
      if (options.quiet) say(name);
      // Quiet: the command's whole output; either way, why it could not start, if it could not.
      process.stdout.write(Buffer.concat(held));
      resolve(status);
    });
  });
}

async function runCheck(name: string, command: string, args: string[]): Promise<StepResult> {
  const ok = (await run(name, command, args, { quiet: true })) === 0;
  return { name, ok, passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 };
}

async function runJest(project: string, extraArgs: string[]): Promise<StepResult> {
  const output = path.join(mkdtempSync(path.join(tmpdir(), 'paygrid-jest-')), `${project}.json`);
  const status = await run(
    `jest ${project}`,
    bin('jest'),
    // --forceExit: a handle a failed test left open (a consumer mid-reconnect, a kept-alive socket) must not
    // hold the whole run until CI's deadline; the report is written first, and `npx jest --detectOpenHandles`
    // finds such leaks locally.
    ['--selectProjects', project, '--json', `--outputFile=${output}`, '--passWithNoTests', '--forceExit', ...extraArgs],
    { env: { ...process.env, KAFKAJS_NO_PARTITIONER_WARNING: '1' } },
  );
  try {
    const report = JSON.parse(readFileSync(output, 'utf8'));
    const suitesFailed = report.numFailedTestSuites - countFailedTests(report);
    return {
      name: `jest ${project}`,
      ok: status === 0,
      passed: report.numPassedTests,
      // A suite that fails to load has no failed test; count it so the summary cannot read green.
      failed: report.numFailedTests + Math.max(0, suitesFailed),
      skipped: report.numPendingTests + report.numTodoTests,
    };
  } catch {
    return { name: `jest ${project}`, ok: false, passed: 0, failed: 1, skipped: 0 };
  }
}

/**
 * Where the e2e tier's closing `ledger verify` (apps/e2e global-teardown) leaves its verdict: the same
 * path as apps/e2e's E2E_LEDGER_VERDICT_FILE (deploy/local does not import the e2e app).
 */
const E2E_LEDGER_VERDICT = path.join(REPO_ROOT, 'tmp/e2e-logs/ledger-verify.json');

/** The e2e run's ledger check as a row of its own: a difference, or a check that never ran, is a failure. */
function e2eLedgerCheck(): StepResult {
  const name = 'e2e ledger verify';
  if (!existsSync(E2E_LEDGER_VERDICT)) {
    process.stdout.write(`${name}: no verdict (the e2e stack never reached its teardown)\n`);
    return { name, ok: false, passed: 0, failed: 1, skipped: 0 };
  }
  const verdict = JSON.parse(readFileSync(E2E_LEDGER_VERDICT, 'utf8')) as { ok: boolean; output: string };
  if (!verdict.ok) process.stdout.write(`${name} found differences:\n${verdict.output}\n`);
  return { name, ok: verdict.ok, passed: verdict.ok ? 1 : 0, failed: verdict.ok ? 0 : 1, skipped: 0 };
}

/** Suites that failed because of a failing test (the others failed to load or run at all). */
function countFailedTests(report: { testResults: { assertionResults: { status: string }[] }[] }): number {
  return report.testResults.filter((suite) => suite.assertionResults.some((test) => test.status === 'failed')).length;
}

async function main(): Promise<void> {
  const results: StepResult[] = [];
  // Lint and the type-check are one single-threaded process each: side by side on two cores. The broker
  // comes up meanwhile (on a fresh machine its jars download first), so the integration tier does not wait
  // for it after the unit tier.
  const checks = [
    runCheck('lint', 'npm', ['run', '-s', 'lint']),
    runCheck('type-check', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']),
  ];
  const infrastructureLines: string[] = [];
  // A port 9092 held by someone else's process gets a throwaway broker of this run instead (said above).
  const infrastructure = provideInfrastructure((line) => infrastructureLines.push(line), '', {
    otherPortsIfHeld: true,
  }).then(
    (provided) => ({ provided }),
    (error: unknown) => ({ error }),
  );
  results.push(...(await Promise.all(checks)));
  results.push(await runJest('unit', []));

  say('infrastructure');
  const outcome = await infrastructure;
  process.stdout.write(infrastructureLines.map((line) => `${line}\n`).join(''));
  if ('error' in outcome) throw outcome.error;
  process.env.KAFKA_BROKERS = outcome.provided.kafkaBrokers;
  try {
    // Two workers: each integration file has its own databases, Kafka prefix, job and queue prefixes and, where
    // an app's Redis keys have fixed names or a test empties Redis, a Redis database of its own; a test that
    // stops the broker runs its own (docs/testing.md). Most of a file's time is waiting on the broker and
    // the apps it starts, so two at once take about half the wall time. The e2e tier shares one stack: in band.
    results.push(await runJest('integration', ['--maxWorkers=2']));
    rmSync(E2E_LEDGER_VERDICT, { force: true });
    results.push(await runJest('e2e', ['--runInBand']));
    results.push(e2eLedgerCheck());
  } finally {
    await outcome.provided.release();
  }

  say('summary');
  for (const step of results) {
    process.stdout.write(
      `${step.ok ? 'ok  ' : 'FAIL'} ${step.name.padEnd(18)} ${step.passed} passed, ${step.failed} failed, ${step.skipped} skipped\n`,
    );
  }
  const total = results.reduce(
    (sum, step) => ({ passed: sum.passed + step.passed, failed: sum.failed + step.failed, skipped: sum.skipped + step.skipped }),
    { passed: 0, failed: 0, skipped: 0 },
  );
  const allOk = results.every((step) => step.ok);
  process.stdout.write(`summary: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
  process.exit(allOk ? 0 : 1);
}

main().catch((error) => {
  process.stderr.write(`npm test: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.stdout.write('summary: 0 passed, 1 failed, 0 skipped\n');
  process.exit(1);
});
