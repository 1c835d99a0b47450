/**
 * What `npm run bench` is held to (issue 12): each target names the figure it reads, the baseline it is
 * divided by (a figure of the same run on the same machine, so the ratio survives a faster or slower box),
 * and its threshold. Absolute targets (latency, CPU) have no baseline. The payouts and ledger ratios are
 * not issue 12's targets: they are floors a little under their figures when the table was written, so a
 * regression shows as a FAIL.
 */
export type Results = Record<string, Record<string, number | string>>;

export interface Target {
  name: string;
  /** [section, figure] of the results. */
  figure: [string, string];
  baseline?: [string, string];
  threshold: number;
  direction: 'at_least' | 'at_most';
  unit: string;
}

/** The Postgres create-like transaction rate: the baseline of every ratio to Postgres. */
const POSTGRES_BASELINE: [string, string] = ['postgres_commit', 'transactions_per_second'];

/** The c16 rate against Postgres: with the CPU per create, the one c16Reading explains. */
export const C16_RATIO_TARGET: Target = {
  name: 'create-intent (card, auto-capture) c16: rate vs postgres create-like tx',
  figure: ['acquiring_create_intent', 'acquiring_create_intent_per_second'],
  baseline: POSTGRES_BASELINE,
  threshold: 0.08,
  direction: 'at_least',
  unit: '×',
};

export const CPU_PER_CREATE_TARGET: Target = {
  name: 'CPU per create, all stack processes',
  figure: ['acquiring_create_intent', 'cpu_ms_per_operation'],
  threshold: 12,
  direction: 'at_most',
  unit: 'ms',
};

export const TARGETS: Target[] = [
  C16_RATIO_TARGET,
  {
    name: 'create-intent c16: p99',
    figure: ['acquiring_create_intent', 'acquiring_create_intent_p99_ms'],
    threshold: 250,
    direction: 'at_most',
    unit: 'ms',
  },
  {
    name: 'create-intent c1: p50 end to end',
    figure: ['acquiring_create_intent_c1', 'p50_ms'],
    threshold: 15,
    direction: 'at_most',
    unit: 'ms',
  },
  CPU_PER_CREATE_TARGET,
  {
    name: 'webhook outbox commit → receiver p99, during the c16 create run',
    figure: ['acquiring_create_intent', 'webhook_commit_to_receiver_p99_ms'],
    threshold: 100,
    direction: 'at_most',
    unit: 'ms',
  },
  {
    name: 'create-intent c16 with a failing endpoint vs without',
    figure: ['acquiring_failing_endpoint', 'acquiring_create_intent_per_second'],
    baseline: ['acquiring_create_intent', 'acquiring_create_intent_per_second'],
    threshold: 0.9,
    direction: 'at_least',
    unit: '×',
  },
  {
    name: 'authenticated idempotent echo c64 vs gateway no-op c64',
    figure: ['gateway_authenticated_idempotent_c64', 'requests_per_second'],
    baseline: ['http_noop_c64', 'requests_per_second'],
    threshold: 0.35,
    direction: 'at_least',
    unit: '×',
  },
  {
    name: 'payout create c16 vs postgres create-like tx (floor)',
    figure: ['payout_create', 'payouts_per_second'],
    baseline: POSTGRES_BASELINE,
    threshold: 0.025,
    direction: 'at_least',
    unit: '×',
  },
  {
    name: 'ledger capture entries vs postgres create-like tx (floor)',
    figure: ['ledger_postings', 'entries_per_second'],
    baseline: POSTGRES_BASELINE,
    threshold: 0.15,
    direction: 'at_least',
    unit: '×',
  },
];

export interface TargetOutcome {
  target: Target;
  figure: number | null;
  baseline: number | null;
  /** The figure, or its ratio to the baseline. */
  value: number | null;
  verdict: 'PASS' | 'FAIL' | 'not run';
}

export function evaluateTargets(results: Results, targets: Target[] = TARGETS): TargetOutcome[] {
  return targets.map((target) => {
    const figure = numberAt(results, target.figure);
    const baseline = target.baseline ? numberAt(results, target.baseline) : null;
    const value =
      figure === null ? null : target.baseline ? (baseline ? figure / baseline : null) : figure;
    const verdict =
      value === null
        ? 'not run'
        : (target.direction === 'at_least' ? value >= target.threshold : value <= target.threshold)
          ? 'PASS'
          : 'FAIL';
    return { target, figure, baseline, value, verdict };
  });
}

/** The targets as a Markdown table: figure, baseline, ratio, target, verdict. */
export function targetTable(outcomes: TargetOutcome[]): string {
  const lines = ['| target | figure | baseline | ratio | target | result |', '|---|---|---|---|---|---|'];
  for (const { target, figure, baseline, value, verdict } of outcomes) {
    const ratio = target.baseline && value !== null ? value.toFixed(3) : '';
    const bound = `${target.direction === 'at_least' ? '≥' : '≤'} ${target.threshold}${target.unit === '×' ? '×' : ` ${target.unit}`}`;
    const shown = figure === null ? '' : `${figure}${target.baseline ? '' : ` ${target.unit}`}`;
    lines.push(`| ${target.name} | ${shown} | ${baseline ?? ''} | ${ratio} | ${bound} | ${verdict} |`);
  }
  return lines.join('\n');
}

/**
 * How to read the c16 ratio of a run (docs/performance.md §3). The c16 run keeps the cores saturated, so its
 * rate is the cores divided by a create's CPU, and the ratio target is a budget of CPU per create that the
 * baseline sets: cores ÷ (threshold × baseline). `coreSecondsPerSecond` (rate × CPU per create) near the core
 * count says the run was saturated and the budget applies. Null when the run lacks a figure.
 *
 * `kernelSharePercent`, when both runs recorded it (machine-cpu.ts): the kernel's share of the machine's busy
 * time during the baseline and during the c16 run. Half the baseline's busy time is system calls and context
 * switches, a fifth of a create's, so a change in the VM's kernel cost moves the budget more than the create's
 * CPU; the two shares say whether a record's phase differs in that (docs/performance.md §34).
 */
export interface C16Reading {
  coreSecondsPerSecond: number;
  cpuBudgetMs: number;
  cpuMs: number;
  kernelSharePercent?: { baseline: number; c16: number };
}

/** Where the baseline's and the c16 run's kernel shares are recorded. */
const KERNEL_SHARE: Record<'baseline' | 'c16', [string, string]> = {
  baseline: [POSTGRES_BASELINE[0], 'machine_kernel_share_of_busy_percent'],
  c16: [C16_RATIO_TARGET.figure[0], 'machine_kernel_share_of_busy_percent'],
};

export function c16Reading(results: Results, cores: number): C16Reading | null {
  const rate = numberAt(results, C16_RATIO_TARGET.figure);
  const baseline = numberAt(results, POSTGRES_BASELINE);
  const cpuMs = numberAt(results, CPU_PER_CREATE_TARGET.figure);
  if (!rate || !baseline || !cpuMs) return null;
  const kernelDuringBaseline = numberAt(results, KERNEL_SHARE.baseline);
  const kernelDuringC16 = numberAt(results, KERNEL_SHARE.c16);
  return {
    coreSecondsPerSecond: (rate * cpuMs) / 1000,
    cpuBudgetMs: (cores * 1000) / (C16_RATIO_TARGET.threshold * baseline),
    cpuMs,
    ...(kernelDuringBaseline !== null && kernelDuringC16 !== null
      ? { kernelSharePercent: { baseline: kernelDuringBaseline, c16: kernelDuringC16 } }
      : {}),
  };
}

/** The reading as one line under the targets table. */
export function c16ReadingLine(reading: C16Reading | null, cores: number): string {
  if (reading === null) return '';
  const { coreSecondsPerSecond, cpuBudgetMs, cpuMs, kernelSharePercent } = reading;
  const kernel = kernelSharePercent
    ? ` The kernel's share of the busy time: ${kernelSharePercent.baseline} % during the baseline, ${kernelSharePercent.c16} % during c16 (§34).`
    : '';
  return (
    `c16 reading: rate × CPU per create = ${coreSecondsPerSecond.toFixed(2)} core-seconds a second of ${cores} cores; ` +
    `at this baseline the ratio target is CPU per create ≤ ${cpuBudgetMs.toFixed(2)} ms, and this run's was ${cpuMs} ms ` +
    `(docs/performance.md §3).${kernel}`
  );
}

function numberAt(results: Results, [section, key]: [string, string]): number | null {
  const value = results[section]?.[key];
  if (value === undefined || value === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}
