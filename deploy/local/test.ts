import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './app-launcher';
import { provideInfrastructure } from './infrastructure';

/**
 * `npm test`: lint, type-check, then the three Jest tiers (unit; integration and e2e against the real
 * Postgres, Redis and Kafka, which this brings up and stops again if it started them), and one closing
 * summary line of passed and failed counts. Every step runs even if an earlier one failed, so one run
 * shows everything that is wrong; the exit code is non-zero if anything failed.
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

function runCheck(name: string, command: string, args: string[]): StepResult {
  say(name);
  const result = spawnSync(command, args, { cwd: REPO_ROOT, stdio: 'inherit' });
  const ok = result.status === 0;
  return { name, ok, passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 };
}

function runJest(project: string, extraArgs: string[]): StepResult {
  say(`jest ${project}`);
  const output = path.join(mkdtempSync(path.join(tmpdir(), 'paygrid-jest-')), `${project}.json`);
  const result = spawnSync(
    bin('jest'),
    ['--selectProjects', project, '--json', `--outputFile=${output}`, '--passWithNoTests', ...extraArgs],
    { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, KAFKAJS_NO_PARTITIONER_WARNING: '1' } },
  );
  try {
    const report = JSON.parse(readFileSync(output, 'utf8'));
    const suitesFailed = report.numFailedTestSuites - countFailedTests(report);
    return {
      name: `jest ${project}`,
      ok: result.status === 0,
      passed: report.numPassedTests,
      // A suite that fails to load has no failed test; count it so the summary cannot read green.
      failed: report.numFailedTests + Math.max(0, suitesFailed),
      skipped: report.numPendingTests + report.numTodoTests,
    };
  } catch {
    return { name: `jest ${project}`, ok: false, passed: 0, failed: 1, skipped: 0 };
  }
}

/** Suites that failed because of a failing test (the others failed to load or run at all). */
function countFailedTests(report: { testResults: { assertionResults: { status: string }[] }[] }): number {
  return report.testResults.filter((suite) => suite.assertionResults.some((test) => test.status === 'failed')).length;
}

async function main(): Promise<void> {
  const results: StepResult[] = [];
  results.push(runCheck('lint', 'npm', ['run', '-s', 'lint']));
  results.push(runCheck('type-check', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']));
  results.push(runJest('unit', []));

  say('infrastructure');
  // A port 9092 held by someone else's process gets a throwaway broker of this run instead (said above).
  const infrastructure = await provideInfrastructure((line) => process.stdout.write(`${line}\n`), '', { otherPortsIfHeld: true });
  process.env.KAFKA_BROKERS = infrastructure.kafkaBrokers;
  try {
    results.push(runJest('integration', ['--runInBand']));
    results.push(runJest('e2e', ['--runInBand']));
  } finally {
    await infrastructure.release();
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
