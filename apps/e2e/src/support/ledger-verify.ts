import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { REPO_ROOT } from '@paygrid/local-stack';
import { e2eInfrastructure, e2eKafkaPrefix, E2E_LEDGER_VERDICT_FILE } from './stack-settings';

/**
 * `npm run paygrid -- ledger verify` against the e2e stack: the compiled CLI (global-setup built it), on
 * the run's Kafka prefix, waiting up to 30 s for acquiring's last settlements to reach the ledger.
 */
export function runLedgerVerify(): { status: number | null; stderr: string; stdout: string } {
  const run = spawnSync('node', ['-r', './deploy/local/register-paths.js', 'dist/tools/cli/src/main.js', 'ledger', 'verify', '--settle-wait', '30000'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, KAFKA_BROKERS: e2eInfrastructure().kafkaBrokers, KAFKA_PREFIX: e2eKafkaPrefix(), PAYGRID_CLI_TIMEOUT_MS: '20000' },
    timeout: 90_000,
  });
  return { status: run.status, stderr: run.stderr, stdout: run.stdout };
}

/** What the e2e tier's closing ledger check found: written for `npm test`'s summary (deploy/local/test.ts). */
export interface LedgerVerdict {
  ok: boolean;
  output: string;
}

/**
 * The e2e tier's last step (global-teardown, before the apps stop): the ledgers of everything the whole
 * run did, checked as an operator would. A difference (or a CLI that cannot run) fails the run: the
 * process exits non-zero even when every test passed (Jest keeps a non-zero exit code it did not set),
 * the verdict file puts a failed row in `npm test`'s summary, and the output is printed, never only logged.
 */
export function verifyLedgersAfterSuite(
  run: () => ReturnType<typeof runLedgerVerify> = runLedgerVerify,
  verdictFile = E2E_LEDGER_VERDICT_FILE,
): LedgerVerdict {
  let verdict: LedgerVerdict;
  try {
    const result = run();
    const output = [result.stdout, result.stderr].map((text) => text.trim()).filter((text) => text !== '').join('\n');
    verdict = { ok: result.status === 0, output: output || `the CLI ended with status ${result.status} and no output` };
  } catch (error) {
    verdict = { ok: false, output: `the check could not run: ${error instanceof Error ? error.message : String(error)}` };
  }
  try {
    writeFileSync(verdictFile, JSON.stringify(verdict));
  } catch {
    // npm test reads a missing verdict as a failure; the exit code and the output below still say it.
  }
  if (verdict.ok) {
    process.stdout.write(`\ne2e ledger check: ${verdict.output}\n`);
  } else {
    process.stderr.write(`\nFAIL e2e ledger check (paygrid ledger verify after the whole e2e run):\n${verdict.output}\n`);
    process.exitCode = 1;
  }
  return verdict;
}
