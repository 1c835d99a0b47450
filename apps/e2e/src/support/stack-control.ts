import { APP_CATALOG, AppName } from '@paygrid/platform';
import { launchApp, RunningApp, waitUntilReady } from '@paygrid/local-stack';
import { waitFor } from '@paygrid/testing';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { e2eInfrastructure, e2eSettings, E2E_PIDS_FILE } from './stack-settings';

/**
 * Lets a test take an app of the e2e stack down and bring it back, to prove behaviour across
 * crashes. Pids live in a file (tmp/e2e-logs/pids.json) because test files run in their own module
 * registry; the global teardown stops whatever pid the file names at the end.
 */
/** The current process of every app of the e2e stack, by app name. */
export function stackPids(): Record<string, number> {
  return existsSync(E2E_PIDS_FILE) ? JSON.parse(readFileSync(E2E_PIDS_FILE, 'utf8')) : {};
}

export async function killApp(name: AppName): Promise<void> {
  const pid = pidOf(name);
  process.kill(pid, 'SIGKILL');
  await waitFor(() => !isAlive(pid), { what: `${name} to die` });
}

/**
 * SIGTERM, as an orchestrator stops a pod: resolves once the process is gone (its graceful shutdown
 * drains the requests in flight first), or fails after `timeoutMs`.
 */
export async function terminateApp(name: AppName, timeoutMs = 30_000): Promise<void> {
  const pid = pidOf(name);
  process.kill(pid, 'SIGTERM');
  await waitFor(() => !isAlive(pid), { timeoutMs, intervalMs: 100, what: `${name} to stop after SIGTERM` });
}

/**
 * Freezes an app (SIGSTOP): a barrier the test holds, e.g. a command waits unconsumed on the service's
 * topic while the test does something to the sender. `resumeApp` lets it go on where it stopped.
 */
export function pauseApp(name: AppName): void {
  process.kill(pidOf(name), 'SIGSTOP');
}

export function resumeApp(name: AppName): void {
  process.kill(pidOf(name), 'SIGCONT');
}

function pidOf(name: AppName): number {
  const pid = stackPids()[name];
  if (!pid) throw new Error(`no running ${name} in the e2e stack`);
  return pid;
}

export async function startAppAgain(name: AppName): Promise<RunningApp> {
  const app = await launchReady(name, 0, {});
  writeFileSync(E2E_PIDS_FILE, JSON.stringify({ ...stackPids(), [name]: app.process.pid }));
  return app;
}

/**
 * A second instance of an app beside the stack's, on the port `extraPortOffset` above the e2e one,
 * with its own settings (e.g. a gateway with a low rate limit). The caller stops it (stopApps).
 */
export function startExtraInstance(name: AppName, extraPortOffset: number, extraEnv: Record<string, string>): Promise<RunningApp> {
  return launchReady(name, extraPortOffset, extraEnv);
}

async function launchReady(name: AppName, extraPortOffset: number, extraEnv: Record<string, string>): Promise<RunningApp> {
  const descriptor = APP_CATALOG.find((app) => app.name === name);
  if (!descriptor) throw new Error(`unknown app ${name}`);
  const settings = e2eSettings(e2eInfrastructure());
  const app = launchApp(
    { ...settings, portOffset: settings.portOffset + extraPortOffset, extraEnv: { ...settings.extraEnv, ...extraEnv } },
    descriptor,
    () => undefined,
  );
  await waitUntilReady([app], 60_000);
  return app;
}

/** Whether a process of ours still runs (signal 0 only asks). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
