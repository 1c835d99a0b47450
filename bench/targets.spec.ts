import { c16Reading, c16ReadingLine, evaluateTargets, Target, targetTable } from './targets';
import { selectedSections } from './sections';
import {
  cpuBetween,
  cpuPerOperation,
  cpuTicksOf,
  CpuGroup,
  CpuSample,
  openCpuWindow,
  stackCpuGroups,
  windowPerOperation,
} from './process-cpu';

const ratio: Target = {
  name: 'rate vs baseline',
  figure: ['load', 'per_second'],
  baseline: ['postgres', 'tps'],
  threshold: 0.08,
  direction: 'at_least',
  unit: '×',
};
const latency: Target = { name: 'p99', figure: ['load', 'p99_ms'], threshold: 250, direction: 'at_most', unit: 'ms' };

describe('the bench targets', () => {
  it('divides a figure by its baseline and compares the ratio with the threshold', () => {
    const [passing] = evaluateTargets({ load: { per_second: 100 }, postgres: { tps: 1000 } }, [ratio]);
    expect(passing).toMatchObject({ figure: 100, baseline: 1000, verdict: 'PASS' });
    expect(passing.value).toBeCloseTo(0.1);
    const [failing] = evaluateTargets({ load: { per_second: 50 }, postgres: { tps: 1000 } }, [ratio]);
    expect(failing.verdict).toBe('FAIL');
  });

  it('holds an absolute figure to an upper bound', () => {
    expect(evaluateTargets({ load: { p99_ms: 250 } }, [latency])[0].verdict).toBe('PASS');
    expect(evaluateTargets({ load: { p99_ms: 251 } }, [latency])[0].verdict).toBe('FAIL');
  });

  it('says "not run" when a section did not run, never PASS', () => {
    const outcomes = evaluateTargets({ postgres: { tps: 1000 } }, [ratio, latency]);
    expect(outcomes.map((outcome) => outcome.verdict)).toEqual(['not run', 'not run']);
    expect(targetTable(outcomes)).toContain('| rate vs baseline |  | 1000 |  | ≥ 0.08× | not run |');
  });

  it('prints figure, baseline, ratio, threshold and verdict in one row per target', () => {
    const table = targetTable(evaluateTargets({ load: { per_second: 100, p99_ms: 300 }, postgres: { tps: 1000 } }, [ratio, latency]));
    expect(table).toContain('| rate vs baseline | 100 | 1000 | 0.100 | ≥ 0.08× | PASS |');
    expect(table).toContain('| p99 | 300 ms |  |  | ≤ 250 ms | FAIL |');
  });
});

describe('the c16 reading', () => {
  const run = {
    postgres_commit: { transactions_per_second: 2500 },
    acquiring_create_intent: { acquiring_create_intent_per_second: 200, cpu_ms_per_operation: 10 },
  };

  it('turns the ratio target into a CPU budget set by the baseline, and says how busy the cores were', () => {
    // 2 cores ÷ (0.08 × 2,500/s) = 10 ms; 200/s × 10 ms = 2 core-seconds a second.
    expect(c16Reading(run, 2)).toEqual({ coreSecondsPerSecond: 2, cpuBudgetMs: 10, cpuMs: 10 });
    expect(c16Reading({ ...run, postgres_commit: { transactions_per_second: 1250 } }, 2)?.cpuBudgetMs).toBe(20);
    expect(c16Reading(run, 4)?.cpuBudgetMs).toBe(20);
  });

  it('is absent, and prints nothing, when the run lacks one of its figures', () => {
    expect(c16Reading({ postgres_commit: run.postgres_commit }, 2)).toBeNull();
    expect(c16Reading({ acquiring_create_intent: run.acquiring_create_intent }, 2)).toBeNull();
    expect(c16ReadingLine(null, 2)).toBe('');
  });

  it("prints the budget next to the run's own CPU per create", () => {
    expect(c16ReadingLine(c16Reading(run, 2), 2)).toContain(
      "= 2.00 core-seconds a second of 2 cores; at this baseline the ratio target is CPU per create ≤ 10.00 ms, and this run's was 10 ms",
    );
  });

  it("adds the kernel's share of each run once both recorded it, and only then", () => {
    const withShares = {
      postgres_commit: { ...run.postgres_commit, machine_kernel_share_of_busy_percent: 55.2 },
      acquiring_create_intent: { ...run.acquiring_create_intent, machine_kernel_share_of_busy_percent: 17.9 },
    };
    expect(c16Reading(withShares, 2)?.kernelSharePercent).toEqual({ baseline: 55.2, c16: 17.9 });
    expect(c16ReadingLine(c16Reading(withShares, 2), 2)).toContain(
      "The kernel's share of the busy time: 55.2 % during the baseline, 17.9 % during c16",
    );
    const baselineOnly = { ...run, postgres_commit: withShares.postgres_commit };
    expect(c16Reading(baselineOnly, 2)?.kernelSharePercent).toBeUndefined();
    expect(c16ReadingLine(c16Reading(baselineOnly, 2), 2)).not.toContain('kernel');
  });
});

describe('--only', () => {
  it('selects sections by comma list or repeated flag, and every section without it', () => {
    expect(selectedSections([])).toBeNull();
    expect(selectedSections(['--only', 'acquiring,http'])).toEqual(['acquiring', 'http']);
    expect(selectedSections(['--only=ledger', '--only', 'webhooks'])).toEqual(['ledger', 'webhooks']);
  });

  it('refuses an unknown section rather than running nothing', () => {
    expect(() => selectedSections(['--only', 'acquring'])).toThrow(/unknown bench section\(s\) acquring/);
  });
});

describe('CPU per operation', () => {
  it('reads utime + stime of a live process and null for a gone one', () => {
    expect(cpuTicksOf(process.pid)).toEqual(expect.any(Number));
    expect(cpuTicksOf(2 ** 22 + 1)).toBeNull();
  });

  it('sums the differences of the stack groups, counts a process born mid-run whole, and leaves shared groups and parts out of the total', () => {
    const groups: CpuGroup[] = [
      { name: 'gateway', pids: () => [] },
      { name: 'postgres', pids: () => [] },
      { name: 'postgres_acquiring', pids: () => [], partOf: 'postgres' },
      { name: 'postgres_shared', pids: () => [], shared: true },
    ];
    const before: CpuSample = new Map([
      ['gateway', new Map([[10, 100]])],
      ['postgres', new Map([[20, 50]])],
      ['postgres_acquiring', new Map([[20, 50]])],
      ['postgres_shared', new Map([[30, 0]])],
    ]);
    const after: CpuSample = new Map([
      ['gateway', new Map([[10, 140]])],
      ['postgres', new Map([[20, 70], [21, 10]])],
      ['postgres_acquiring', new Map([[20, 70]])],
      ['postgres_shared', new Map([[30, 500]])],
    ]);
    const used = cpuBetween(groups, before, after);
    expect(used).toEqual({ gateway: 400, postgres: 300, postgres_acquiring: 200, postgres_shared: 5000 });
    expect(cpuPerOperation(groups, used, 100)).toEqual({
      cpu_ms_per_operation: 7,
      cpu_ms_gateway: 4,
      cpu_ms_postgres: 3,
      cpu_ms_postgres_acquiring: 2,
      cpu_ms_postgres_shared: 50,
    });
  });

  it("splits the stack's Postgres per app database, named as the database figures are, as parts left out of the total", () => {
    const parts = stackCpuGroups([], '_bench').filter((group) => group.partOf === 'postgres');
    expect(parts.map((group) => group.name)).toEqual([
      'postgres_gateway',
      'postgres_accounts',
      'postgres_acquiring',
      'postgres_payouts',
      'postgres_issuing',
      'postgres_webhooks',
    ]);
  });

  it("subtracts each group's idle burn over the run before dividing, and keeps the gross total", () => {
    const groups: CpuGroup[] = [
      { name: 'gateway', pids: () => [] },
      { name: 'kafka', pids: () => [] },
    ];
    const figures = cpuPerOperation(groups, { gateway: 1000, kafka: 500 }, 100, {
      perMs: { gateway: 0.01, kafka: 0.1 },
      runMs: 10_000,
    });
    expect(figures).toEqual({ cpu_ms_per_operation: 9, cpu_ms_per_operation_gross: 15, cpu_ms_gateway: 9, cpu_ms_kafka: 0 });
  });

  it("closes a window on a group's CPU and wall clock since it opened, and prices it less the idle burn", () => {
    const groups: CpuGroup[] = [{ name: 'bench', pids: () => [process.pid] }];
    const closeWindow = openCpuWindow(groups);
    const cpuBefore = process.cpuUsage();
    // Busy for 30 ms of CPU, three of the clock ticks /proc counts utime in, however the test is scheduled.
    while (process.cpuUsage(cpuBefore).user < 30_000);
    const window = closeWindow();
    expect(window.ms).toBeGreaterThan(0);
    expect(window.used.bench).toBeGreaterThan(0);
    const perOperation = windowPerOperation(groups, { used: { bench: 1000 }, ms: 2000 }, 10, { bench: 0.25 });
    // (1000 - 0.25 * 2000) / 10
    expect(perOperation.cpu_ms_bench).toBe(50);
  });
});
