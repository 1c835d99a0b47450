import { readdirSync, readFileSync } from 'node:fs';
import { CpuGroup, samplePerPid } from './process-cpu';

/**
 * Context switches of the stack's processes, read from /proc (Linux): for every thread of a process, the
 * `voluntary_ctxt_switches` (it blocked: waited on a socket, a timer, a lock; each is one wake-up later)
 * and `nonvoluntary_ctxt_switches` (it was preempted) of /proc/<pid>/task/<tid>/status.
 *
 * Why count them: on this 2-vCPU VM a create's CPU is spread over dozens of hops between processes (HTTP,
 * Redis, Kafka, Postgres round trips, timers), and every hop is a wake-up whose cost (scheduler, the
 * paravirtual interrupt handling, cold caches) lands on somebody's CPU. Wake-ups per create are a count, so
 * unlike CPU milliseconds they do not move with the machine's speed from run to run: two builds can be
 * compared by one run each. docs/performance.md §16.
 */
export interface Switches {
  voluntary: number;
  preempted: number;
}

export type SwitchSample = Map<string, Map<number, Switches>>;

export function sampleSwitches(groups: CpuGroup[]): SwitchSample {
  return samplePerPid(groups, switchesOf);
}

/** Every thread's switches of one process, summed; null when it has gone. */
export function switchesOf(pid: number): Switches | null {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  const total: Switches = { voluntary: 0, preempted: 0 };
  for (const tid of threads) {
    try {
      const counted = parseSwitches(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'));
      total.voluntary += counted.voluntary;
      total.preempted += counted.preempted;
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return total;
}

/** The two counters of a /proc status text. */
export function parseSwitches(status: string): Switches {
  const counter = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { voluntary: counter('voluntary_ctxt_switches'), preempted: counter('nonvoluntary_ctxt_switches') };
}

/** Each group's switches between two samples; a process born in between counts all of its own. */
export function switchesBetween(
  groups: CpuGroup[],
  before: SwitchSample,
  after: SwitchSample,
): Record<string, Switches> {
  const between: Record<string, Switches> = {};
  for (const group of groups) {
    const start = before.get(group.name) ?? new Map<number, Switches>();
    const sum: Switches = { voluntary: 0, preempted: 0 };
    for (const [pid, now] of after.get(group.name) ?? new Map<number, Switches>()) {
      sum.voluntary += now.voluntary - (start.get(pid)?.voluntary ?? 0);
      sum.preempted += now.preempted - (start.get(pid)?.preempted ?? 0);
    }
    between[group.name] = sum;
  }
  return between;
}

/**
 * Wake-ups (voluntary switches) per operation, per group, with what the stack does idle over the same length
 * subtracted (its timers and polls are a rate, not a cost of the operations). The sum is over the servers
 * only: a server blocks once per request it waits for, while a busy app's event loop finds work waiting and
 * seldom blocks, so an app's figure falls as load rises and says little about the work. Preemptions per
 * operation are summed over every counted group, as a sign of contention.
 */
export function switchesPerOperation(
  groups: CpuGroup[],
  between: Record<string, Switches>,
  operations: number,
  idle: { perMs: Record<string, Switches>; runMs: number },
): Record<string, number> {
  if (operations <= 0) return {};
  const rounded = (value: number) => Math.round(value * 10) / 10;
  const per: Record<string, number> = {};
  let wakeups = 0;
  let preempted = 0;
  for (const group of groups) {
    const counted = between[group.name] ?? { voluntary: 0, preempted: 0 };
    const idleWakeups = (idle.perMs[group.name]?.voluntary ?? 0) * idle.runMs;
    const value = Math.max(0, counted.voluntary - idleWakeups) / operations;
    per[`wakeups_per_op_${group.name.replace(/-/g, '_')}`] = rounded(value);
    if (group.shared || group.partOf) continue;
    if (group.server) wakeups += value;
    preempted += counted.preempted / operations;
  }
  return {
    server_wakeups_per_operation: rounded(wakeups),
    preemptions_per_operation: rounded(preempted),
    ...per,
  };
}

/** Each group's switches per ms of wall clock between two samples `ms` apart (the stack idle). */
export function switchRate(
  groups: CpuGroup[],
  before: SwitchSample,
  after: SwitchSample,
  ms: number,
): Record<string, Switches> {
  const between = switchesBetween(groups, before, after);
  return Object.fromEntries(
    Object.entries(between).map(([name, counted]) => [
      name,
      { voluntary: counted.voluntary / ms, preempted: counted.preempted / ms },
    ]),
  );
}
