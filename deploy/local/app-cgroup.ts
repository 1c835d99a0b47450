import { appendFileSync, existsSync, mkdirSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The cpu cgroup the launcher starts every app in: one group per launcher process, weighted 3072 cpu.shares
 * (three nice-0 processes), unless PAYGRID_APP_CPU_SHARES says otherwise (`none`: no group).
 *
 * Why: Linux's autogroups (kernel.sched_autogroup_enabled, on by default) share the cores first between
 * sessions, each weighing as much as one nice-0 process. Every Postgres backend calls setsid() when the
 * postmaster forks it, so each busy backend weighs as much as all of the launcher's session: the six apps,
 * and under the bench its load generator too (docs/performance.md §51). Under a saturating load the apps
 * then wait for a core behind the backends whose answers they are about to use. A task in a cgroup other
 * than the root one leaves its autogroup; with the apps in a group of three times that weight, alternated
 * bench runs put more creates a second through the same two cores (docs/performance.md §52).
 *
 * This is the local launcher's form of what Kubernetes does with each pod's CPU request (deploy/k8s sets
 * those); the images leave cgroups alone. It needs the cgroup v1 cpu controller mounted at
 * /sys/fs/cgroup/cpu and the right to create a group there (root). Elsewhere (cgroup v2 only, a non-root
 * developer, not Linux) the apps start where the launcher runs, the behaviour before this existed.
 */
export const DEFAULT_APP_CPU_SHARES = 3072;

/** The cgroup v1 cpu controller's mount, where the launcher may make its group. */
export const CPU_CGROUP_ROOT = '/sys/fs/cgroup/cpu';
const GROUP_PREFIX = 'paygrid-apps-';

/** Bounds Linux takes for cpu.shares. */
const MIN_SHARES = 2;
const MAX_SHARES = 262_144;

/** PAYGRID_APP_CPU_SHARES: the default when unset or empty, null with `none`, else an integer 2–262144. */
export function appCpuShares(raw = process.env.PAYGRID_APP_CPU_SHARES): number | null {
  const value = (raw ?? '').trim();
  if (value === '') return DEFAULT_APP_CPU_SHARES;
  if (value === 'none') return null;
  const shares = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(shares >= MIN_SHARES && shares <= MAX_SHARES)) {
    throw new Error(`PAYGRID_APP_CPU_SHARES must be "none" or an integer from 2 to 262144 (got "${value}")`);
  }
  return shares;
}

/** Whether process `pid` still exists (signal 0 checks without sending anything). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One launcher process's cpu cgroup: made on the first app it starts, removed once no app is left in it
 * (at stopApps and when the launcher exits). Every failure to make or join it leaves the app where it is.
 */
export class AppsCgroup {
  private unavailable = false;
  private made = false;

  constructor(
    private readonly root: string = CPU_CGROUP_ROOT,
    private readonly owner: number = process.pid,
    private readonly shares: () => number | null = () => appCpuShares(),
  ) {}

  /** The group's folder: `paygrid-apps-<launcher pid>` under the cpu controller's mount. */
  get directory(): string {
    return path.join(this.root, `${GROUP_PREFIX}${this.owner}`);
  }

  /** Moves process `pid` (every thread of it) into the group; false where there is none to join. */
  join(pid: number | undefined): boolean {
    if (pid === undefined || !this.prepare()) return false;
    try {
      appendFileSync(path.join(this.directory, 'cgroup.procs'), String(pid));
      return true;
    } catch {
      // The child already exited (ESRCH), or the group was removed under us: it runs where it is.
      return false;
    }
  }

  /** The shares the group has here, or null where the apps run outside one (for the bench's record). */
  activeShares(): number | null {
    return this.made || this.prepare() ? this.shares() : null;
  }

  /** Removes the group if no process is left in it; a group still in use stays. */
  removeIfEmpty(): void {
    removeGroupIfEmpty(this.directory);
  }

  /**
   * Makes the group once (sweeping groups whose launcher died); false where it may not exist here. The
   * launcher calls it before it spawns an app, so a malformed PAYGRID_APP_CPU_SHARES stops the launch before
   * a process exists, not after.
   */
  prepare(): boolean {
    if (this.unavailable) return false;
    if (existsSync(this.directory)) return true;
    const shares = this.shares();
    if (shares === null || process.platform !== 'linux' || !existsSync(path.join(this.root, 'cpu.shares'))) {
      this.unavailable = true;
      return false;
    }
    try {
      this.sweepOrphans();
      mkdirSync(this.directory);
      writeFileSync(path.join(this.directory, 'cpu.shares'), String(shares));
    } catch {
      // Not root, or a read-only cgroup mount (a container): the apps run where the launcher runs.
      removeGroupIfEmpty(this.directory);
      this.unavailable = true;
      return false;
    }
    if (!this.made) {
      this.made = true;
      process.once('exit', () => this.removeIfEmpty());
    }
    return true;
  }

  /**
   * A launcher that exits while an app it started still runs (killed, or an e2e worker whose restarted app
   * outlives it) leaves its group behind: the next launcher removes it once it is empty.
   */
  private sweepOrphans(): void {
    for (const name of readdirSync(this.root)) {
      const owner = name.startsWith(GROUP_PREFIX) ? Number(name.slice(GROUP_PREFIX.length)) : NaN;
      if (Number.isInteger(owner) && owner !== this.owner && !isAlive(owner)) {
        removeGroupIfEmpty(path.join(this.root, name));
      }
    }
  }
}

function removeGroupIfEmpty(directory: string): void {
  try {
    // The kernel refuses to remove a cgroup that still holds a process (EBUSY): that refusal is the check.
    rmdirSync(directory);
  } catch {
    // Gone already, or still in use: nothing to do.
  }
}

/** The group every app this process launches joins. */
export const appsCgroup = new AppsCgroup();
