import { existsSync, readFileSync } from 'node:fs';
import { stopApps } from '@paygrid/local-stack';
import { verifyLedgersAfterSuite } from './ledger-verify';
import { E2E_PIDS_FILE } from './stack-settings';

/**
 * Ends the e2e tier: first `paygrid ledger verify` over everything the run did, while every app still
 * answers (a difference fails the run: see ledger-verify.ts); then stops the e2e stack: the processes
 * global-setup started, and any an e2e test restarted in their place (recorded in the pids file); then
 * whatever infrastructure setup itself started.
 */
export default async function globalTeardown(): Promise<void> {
  const stack = globalThis.__PAYGRID_E2E__;
  if (stack) verifyLedgersAfterSuite();
  const restarted: number[] = existsSync(E2E_PIDS_FILE) ? Object.values(JSON.parse(readFileSync(E2E_PIDS_FILE, 'utf8'))) : [];
  const ours = new Set(stack?.apps.map((app) => app.process.pid));
  for (const pid of restarted.filter((pid) => !ours.has(pid))) terminate(pid);
  if (!stack) return;
  await stopApps(stack.apps);
  await stack.release();
  globalThis.__PAYGRID_E2E__ = undefined;
}

function terminate(pid: number): void {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}
