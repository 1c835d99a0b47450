import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { AppName } from '@paygrid/platform';
import { appsCgroup } from './app-cgroup';
import { appsNiceName, effectiveNice, underNice, usableNice } from './app-priority';
import { MachineProbe } from './machine-probe';

/**
 * The Linux scheduling policy the launcher gives every app process: `batch` (SCHED_BATCH) unless
 * PAYGRID_APP_SCHED says `normal`.
 *
 * Why: a create crosses six processes of ours, Postgres and the broker, each waking the next with a socket
 * write. On a box whose cores every process shares (`npm start`, the bench, a small VM), a woken process
 * under the default policy preempts the one that woke it, mid-work, about twenty times per create-intent
 * at concurrency 16 (the bench's `preemptions_per_operation`), and each switch costs CPU and caches. A
 * SCHED_BATCH process keeps its full share of the CPU (same weight as nice 0) but does not preempt on
 * wake-up: it runs when the current task blocks or its slice ends, which in this I/O-bound stack is soon.
 * Alternated bench runs put it at 10-18 % less CPU per create and 7-25 % more creates a second at concurrency 16;
 * a lone create got faster too (c1 p50 17 -> 14 ms in two pairs of three; docs/performance.md §25).
 *
 * The policy is set by starting `node` through util-linux's `chrt`, so every thread inherits it from the
 * first instruction. Where `chrt` is missing (not Linux, a minimal image) or may not set the policy (a
 * sandbox refusing sched_setscheduler), the apps run under the default policy: the same behaviour, a
 * little more CPU under load.
 */
export type AppSchedPolicy = 'batch' | 'normal';

const CHRT_PATHS = ['/usr/bin/chrt', '/bin/chrt'];

/** PAYGRID_APP_SCHED: `batch` (default, also when empty) or `normal`; anything else is refused. */
export function appSchedPolicy(raw = process.env.PAYGRID_APP_SCHED): AppSchedPolicy {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'batch') return 'batch';
  if (value === 'normal') return 'normal';
  throw new Error(`PAYGRID_APP_SCHED must be "batch" or "normal" (got "${value}")`);
}

/** `chrt` on this machine, if it is Linux and has one. */
export function findChrt(
  platform = process.platform,
  exists: (path: string) => boolean = existsSync,
): string | null {
  if (platform !== 'linux') return null;
  return CHRT_PATHS.find((candidate) => exists(candidate)) ?? null;
}

/** Whether `chrt --batch 0 true` runs here: a sandbox may refuse sched_setscheduler (seccomp). */
function canSetBatch(chrt: string): boolean {
  return spawnSync(chrt, ['--batch', '0', 'true'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
}

/** `chrt` where it exists and may set the policy, else null: what usableChrt keeps. */
export function workingChrt(
  find: () => string | null = findChrt,
  tryIt: (chrt: string) => boolean = canSetBatch,
): string | null {
  const chrt = find();
  return chrt !== null && tryIt(chrt) ? chrt : null;
}

const chrtProbe = new MachineProbe<string | null>();

/**
 * `chrt`, found and tried once per process, or null: without it, or where it may not set the policy, the
 * apps start under the default policy rather than not at all.
 */
export function usableChrt(): string | null {
  return chrtProbe.get(() => workingChrt());
}

/**
 * The chrt to start the apps through: a usable one when the policy is batch (tried only then), else null.
 * The one rule both the launcher and the bench's record of the machine read.
 */
export function batchChrt(
  policy: AppSchedPolicy = appSchedPolicy(),
  chrt: () => string | null = usableChrt,
): string | null {
  return policy === 'batch' ? chrt() : null;
}

/** The command and arguments that run `command args` through `chrt --batch 0` (unchanged without one). */
export function underBatch(
  command: string,
  args: string[],
  chrt: string | null,
): { command: string; args: string[] } {
  if (chrt === null) return { command, args };
  // `chrt --batch 0 node …` sets the policy, then execs node: the child keeps its pid, signals and exit code.
  return { command: chrt, args: ['--batch', '0', command, ...args] };
}

/** The policy the apps get here, as Linux names it (for the bench's record of the machine). */
export function appsPolicyName(chrt: string | null = batchChrt()): 'SCHED_BATCH' | 'SCHED_OTHER' {
  return chrt === null ? 'SCHED_OTHER' : 'SCHED_BATCH';
}

/**
 * How the launcher starts `app`'s `command args`: under the policy above, at the app's nice value
 * (app-priority.ts). `nice` goes outermost, so the value is set before chrt sets the policy and node starts.
 */
export function underAppScheduling(
  app: AppName,
  command: string,
  args: string[],
): { command: string; args: string[] } {
  const batched = underBatch(command, args, batchChrt());
  return underNice(batched.command, batched.args, effectiveNice(app), usableNice());
}

/** The apps' policy, nice values and cpu cgroup as they apply here, for the bench's record of the machine. */
export function appsSchedulingName(shares: number | null = appsCgroup.activeShares()): string {
  const nice = appsNiceName();
  const cgroup = shares === null ? '' : `, cpu cgroup ${shares} shares`;
  return `apps ${appsPolicyName()}${nice ? `, ${nice}` : ''}${cgroup}`;
}
