import { readdirSync, readFileSync } from 'node:fs';
import { APP_CATALOG } from '@paygrid/platform';

/**
 * CPU time of the stack's processes, read from /proc (Linux): utime + stime of each process, sampled before
 * and after a measured run, so `cpuPerOperation` is what the whole stack burned per operation, wherever
 * it ran. Counted groups:
 *
 * - each app process the bench launched (by pid);
 * - the Postgres backends serving the bench's own databases (`*_bench` in the backend's title), so other
 *   work on the shared server is left out; Postgres' shared background processes (WAL writer,
 *   checkpointer) are reported apart, not in the sum, because other users of the server share them;
 *   the backends are also reported per database (`postgres_<service>`, parts of `postgres`, not summed);
 * - the Kafka broker and Redis (shared with anyone else on the machine: run the bench alone, under the
 *   stack lock).
 *
 * A process that ends during the run loses its ticks (pools keep their connections, so backends live
 * through a run). Resolution is one clock tick (10 ms on Linux), summed over hundreds of operations.
 */
const TICK_MS = 1000 / 100;

export interface CpuGroup {
  name: string;
  /** Re-evaluated at each sample: backends come and go between the two samples. */
  pids: () => number[];
  /** Left out of the total (shared with other users of the machine). */
  shared?: boolean;
  /** Left out of the total: a part of another group, reported to show where that group's CPU goes. */
  partOf?: string;
  /** A server the apps wait on (Postgres, the broker, Redis): its wake-ups count requests (process-switches.ts). */
  server?: boolean;
}

export type CpuSample = Map<string, Map<number, number>>;

export function sampleCpu(groups: CpuGroup[]): CpuSample {
  return samplePerPid(groups, cpuTicksOf);
}

/** `read` of every process of every group, by group and pid; a process that has gone (null) is left out. */
export function samplePerPid<T>(groups: CpuGroup[], read: (pid: number) => T | null): Map<string, Map<number, T>> {
  const sample = new Map<string, Map<number, T>>();
  for (const group of groups) {
    const values = new Map<number, T>();
    for (const pid of group.pids()) {
      const value = read(pid);
      if (value !== null) values.set(pid, value);
    }
    sample.set(group.name, values);
  }
  return sample;
}

/**
 * Milliseconds of CPU per group between two samples. A process present in both counts its difference; one
 * born during the run counts all of its ticks (a backend opened mid-run did all of its work in the run).
 */
export function cpuBetween(groups: CpuGroup[], before: CpuSample, after: CpuSample): Record<string, number> {
  const used: Record<string, number> = {};
  for (const group of groups) {
    const start = before.get(group.name) ?? new Map<number, number>();
    let ticks = 0;
    for (const [pid, now] of after.get(group.name) ?? new Map<number, number>()) ticks += now - (start.get(pid) ?? 0);
    used[group.name] = ticks * TICK_MS;
  }
  return used;
}

/** utime + stime of one process, in clock ticks; null when it has gone. */
export function cpuTicksOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start past its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** Pids whose command line matches `pattern` (for example the broker's `kafka.Kafka`). */
export function pidsMatching(pattern: RegExp): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (pattern.test(command)) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

/** The stack's groups: its apps, its Postgres backends, Postgres' shared processes, the broker and Redis. */
export function stackCpuGroups(apps: { name: string; pid: number | undefined }[], databaseSuffix: string): CpuGroup[] {
  const suffix = databaseSuffix.replace(/[^a-z0-9_]/gi, '');
  return [
    ...apps.map((app) => ({ name: app.name, pids: () => (app.pid === undefined ? [] : [app.pid]) })),
    { name: 'postgres', pids: () => pidsMatching(new RegExp(`^postgres: .*\\w${suffix} `)), server: true },
    // Named as database-work.ts names its figures: the database without its `paygrid_` prefix.
    ...APP_CATALOG.map(({ database }) => ({
      name: `postgres_${database.replace(/^paygrid_/, '')}`,
      pids: () => pidsMatching(new RegExp(`^postgres: (?:\\S+: )?\\S+ ${database}${suffix} `)),
      partOf: 'postgres',
    })),
    { name: 'kafka', pids: () => pidsMatching(/kafka\.Kafka /), server: true },
    { name: 'redis', pids: () => pidsMatching(/^redis-server /), server: true },
    {
      name: 'postgres_shared',
      pids: () => pidsMatching(/^postgres: \S+ (checkpointer|background writer|walwriter|autovacuum)/),
      shared: true,
    },
  ];
}

/**
 * Per-group and total CPU milliseconds per operation (the shared groups reported, not summed). With `idle`
 * (each group's CPU per ms of wall clock while the stack stood idle just before, and the run's length), a
 * group's idle cost over the run is subtracted first: what an idle stack burns anyway (consumers polling,
 * the relay's poll, heartbeats; on a shared machine, the broker serving others) is a cost per second, not
 * per operation. `cpu_ms_per_operation_gross` keeps the total without that subtraction.
 */
export function cpuPerOperation(
  groups: CpuGroup[],
  used: Record<string, number>,
  operations: number,
  idle?: { perMs: Record<string, number>; runMs: number },
): Record<string, number> {
  const per: Record<string, number> = {};
  let total = 0;
  let gross = 0;
  const rounded = (value: number) => Math.round(value * 100) / 100;
  for (const group of groups) {
    const idleCost = idle ? (idle.perMs[group.name] ?? 0) * idle.runMs : 0;
    const value = operations > 0 ? Math.max(0, used[group.name] - idleCost) / operations : 0;
    per[`cpu_ms_${group.name.replace(/-/g, '_')}`] = rounded(value);
    if (group.shared || group.partOf) continue;
    total += value;
    gross += operations > 0 ? used[group.name] / operations : 0;
  }
  return { cpu_ms_per_operation: rounded(total), ...(idle ? { cpu_ms_per_operation_gross: rounded(gross) } : {}), ...per };
}

/** What each group used over a stretch of wall clock, and how long it was: a run's CPU before it is priced. */
export interface CpuWindow {
  used: Record<string, number>;
  ms: number;
}

/** Opens a CPU window now; calling the result closes it. */
export function openCpuWindow(groups: CpuGroup[]): () => CpuWindow {
  const startedAt = Date.now();
  const before = sampleCpu(groups);
  return () => ({ used: cpuBetween(groups, before, sampleCpu(groups)), ms: Date.now() - startedAt });
}

/** `cpuPerOperation` of a closed window, less the idle burn at `idlePerMs` over the window's length. */
export function windowPerOperation(
  groups: CpuGroup[],
  window: CpuWindow,
  operations: number,
  idlePerMs: Record<string, number>,
): Record<string, number> {
  return cpuPerOperation(groups, window.used, operations, { perMs: idlePerMs, runMs: window.ms });
}

/** Each group's CPU per ms of wall clock over `ms` of whatever the machine does now (the stack idle). */
export async function idleCpuRate(groups: CpuGroup[], ms: number): Promise<Record<string, number>> {
  const before = sampleCpu(groups);
  const started = Date.now();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const used = cpuBetween(groups, before, sampleCpu(groups));
  const elapsed = Date.now() - started;
  return Object.fromEntries(Object.entries(used).map(([name, value]) => [name, value / elapsed]));
}

/**
 * Waits until the stack has digested its boot (sandbox seed events, topic joins, first reconciler passes):
 * until the app processes together use less than `belowPercent` of one core over a 2 s window, or
 * `timeoutMs` passes. Measuring right after "ready" would charge boot work to the first benchmark.
 * Returns how long it waited.
 */
export async function settled(groups: CpuGroup[], options: { belowPercent: number; timeoutMs: number }): Promise<number> {
  const WINDOW_MS = 2000;
  const started = Date.now();
  while (Date.now() - started < options.timeoutMs) {
    const rates = await idleCpuRate(groups, WINDOW_MS);
    const appsPercent = Object.values(rates).reduce((sum, perMs) => sum + perMs, 0) * 100;
    if (appsPercent < options.belowPercent) break;
  }
  return Date.now() - started;
}
