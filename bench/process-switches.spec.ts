import { CpuGroup } from './process-cpu';
import { parseSwitches, switchesBetween, switchesPerOperation, SwitchSample } from './process-switches';

describe('parseSwitches', () => {
  it('reads both counters of a /proc status text', () => {
    const status =
      'Name:\tnode\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t1234\nnonvoluntary_ctxt_switches:\t56\n';
    expect(parseSwitches(status)).toEqual({ voluntary: 1234, preempted: 56 });
  });
});

describe('switchesPerOperation', () => {
  const groups: CpuGroup[] = [
    { name: 'acquiring', pids: () => [10] },
    { name: 'postgres', pids: () => [20, 21], server: true },
    { name: 'postgres_acquiring', pids: () => [20], partOf: 'postgres' },
    { name: 'postgres_shared', pids: () => [30], shared: true },
  ];
  const sample = (counts: Record<string, [number, number, number][]>): SwitchSample =>
    new Map(
      Object.entries(counts).map(([name, rows]) => [
        name,
        new Map(rows.map(([pid, voluntary, preempted]) => [pid, { voluntary, preempted }])),
      ]),
    );

  it("sums the servers' wake-ups per operation, less what the stack does idle in as long", () => {
    const before = sample({
      acquiring: [[10, 100, 5]],
      postgres: [[20, 50, 0]],
      postgres_acquiring: [[20, 50, 0]],
    });
    const after = sample({
      acquiring: [[10, 400, 25]],
      // Backend 21 opened during the run: all of its switches count.
      postgres: [
        [20, 250, 10],
        [21, 100, 0],
      ],
      postgres_acquiring: [[20, 250, 10]],
      postgres_shared: [[30, 999, 9]],
    });
    const between = switchesBetween(groups, before, after);
    const idle = { perMs: { acquiring: { voluntary: 0.01, preempted: 0 } }, runMs: 10_000 };

    expect(switchesPerOperation(groups, between, 10, idle)).toEqual({
      // acquiring (300 - 100 idle) / 10 = 20, not a server; postgres 300 / 10 = 30; the part and the shared
      // group are not summed.
      server_wakeups_per_operation: 30,
      preemptions_per_operation: 3,
      wakeups_per_op_acquiring: 20,
      wakeups_per_op_postgres: 30,
      wakeups_per_op_postgres_acquiring: 20,
      wakeups_per_op_postgres_shared: 99.9,
    });
  });

  it('reports nothing for a run without operations', () => {
    expect(switchesPerOperation(groups, {}, 0, { perMs: {}, runMs: 1 })).toEqual({});
  });
});
