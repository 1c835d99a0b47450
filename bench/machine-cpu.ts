import { readFileSync } from 'node:fs';
import { round } from './stats';

/**
 * How the whole machine spent a measured window, from /proc/stat (Linux): the shares of user, system
 * (kernel, interrupts included), idle (waiting on the disk included) and steal time, and the context
 * switches of every process per operation.
 *
 * Why: the c16 ratio divides the create rate by the Postgres baseline's rate (§3), and the two runs spend
 * the machine differently. The baseline's eight clients make five round trips a transaction, so half its busy
 * time is the kernel's (system time, a context switch per round trip on each side), while a create's is mostly
 * user time (the stack's JavaScript, Postgres' executor). When the VM's kernel work gets dearer or cheaper, the
 * baseline moves more than the create. Each record carries its split, so records from two of the VM's phases
 * can say whether that is what moved (docs/performance.md §34).
 */
export interface MachineCpu {
  /** USER_HZ ticks, summed over the cores. */
  user: number;
  system: number;
  idle: number;
  steal: number;
  /** Context switches of every process since boot. */
  switches: number;
}

/** The aggregate `cpu` line and `ctxt` of a /proc/stat text. */
export function parseProcStat(text: string): MachineCpu {
  const cpu = /^cpu\s+(.+)$/m.exec(text);
  const switches = /^ctxt\s+(\d+)$/m.exec(text);
  if (!cpu || !switches) throw new Error('/proc/stat without its cpu or ctxt line');
  // user nice system idle iowait irq softirq steal (guest time is already inside user and nice).
  const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = cpu[1]
    .trim()
    .split(/\s+/)
    .map(Number);
  return {
    user: user + nice,
    system: system + irq + softirq,
    idle: idle + iowait,
    steal,
    switches: Number(switches[1]),
  };
}

export function sampleMachineCpu(): MachineCpu {
  return parseProcStat(readFileSync('/proc/stat', 'utf8'));
}

/**
 * The window's shares in percent and its context switches per operation (`machine_*` figures); nothing when
 * no busy tick or no operation was counted.
 */
export function machineCpuBetween(
  before: MachineCpu,
  after: MachineCpu,
  operations: number,
): Record<string, number> {
  const delta = {
    user: after.user - before.user,
    system: after.system - before.system,
    idle: after.idle - before.idle,
    steal: after.steal - before.steal,
  };
  const ticks = delta.user + delta.system + delta.idle + delta.steal;
  const busy = delta.user + delta.system;
  if (ticks <= 0 || busy <= 0 || operations <= 0) return {};
  const percent = (part: number, of: number) => round((part / of) * 100, 1);
  return {
    machine_user_percent: percent(delta.user, ticks),
    machine_system_percent: percent(delta.system, ticks),
    machine_idle_percent: percent(delta.idle, ticks),
    machine_steal_percent: percent(delta.steal, ticks),
    // The kernel's part of the work, whatever the idle time: the figure two windows compare by (a window that
    // includes a drain, as the c16 run's does, has more idle time without doing different work).
    machine_kernel_share_of_busy_percent: percent(delta.system, busy),
    machine_context_switches_per_op: round((after.switches - before.switches) / operations, 1),
  };
}
