import { TARGETS } from '../targets';
import {
  BASELINE,
  C16_INTEGER_SPEED,
  C16_RATE,
  comparedFigures,
  figuresOf,
  speedCaution,
} from './ab-figures';

const ECHO_TARGET = TARGETS.find((target) => target.name.startsWith('authenticated idempotent echo'))!.name;

describe('the figures an A/B run is compared by', () => {
  it('reads an http run: the echo target and both sides of its ratio, with the baseline', () => {
    const figures = figuresOf({
      targets: { [ECHO_TARGET]: { value: 0.407 }, 'a target this run did not measure': { value: null } },
      results: {
        postgres_commit: { transactions_per_second: 3272.3 },
        http_noop_c64: { requests_per_second: 41000, p99_ms: 4 },
        gateway_authenticated_idempotent_c64: { requests_per_second: 16700 },
      },
    });
    expect(figures).toEqual({
      [ECHO_TARGET]: 0.407,
      [BASELINE]: 3272.3,
      'gateway no-op c64 /s': 41000,
      'authenticated idempotent echo c64 /s': 16700,
    });
  });

  it("reads a create run: its rate and its per-create numbers (GC pauses, the relay's batches and the databases' wake-ups too), not its latencies, averages, the apps' wake-ups nor text", () => {
    const figures = figuresOf({
      results: {
        acquiring_create_intent: {
          acquiring_create_intent_per_second: 184.3,
          cpu_ms_gateway: 1.08,
          gc_pause_ms_per_op_gateway: 0.05,
          gc_scavenge_avg_ms_gateway: 0.9,
          commits_per_op_acquiring: 3.99,
          relay_batches_per_op_acquiring: 0.33,
          wakeups_per_op_postgres_acquiring: 12.1,
          wakeups_per_op_gateway: 0.3,
          p99_ms: 180,
          cpu_ms_unit: 'ms',
        },
      },
    });
    expect(figures).toEqual({
      [C16_RATE]: 184.3,
      cpu_ms_gateway: 1.08,
      gc_pause_ms_per_op_gateway: 0.05,
      commits_per_op_acquiring: 3.99,
      relay_batches_per_op_acquiring: 0.33,
      wakeups_per_op_postgres_acquiring: 12.1,
    });
  });

  it("reads the machine's speed in the baseline's and the c16 run's windows, and compares by it neither way", () => {
    const figures = figuresOf({
      results: {
        postgres_commit: {
          transactions_per_second: 1200,
          cpu_speed_memory_ms: 4.1,
          cpu_speed_integer_ms: 2.31,
        },
        acquiring_create_intent: {
          acquiring_create_intent_per_second: 110,
          cpu_speed_memory_ms: 6.2,
          cpu_speed_integer_ms: 2.4,
          cpu_speed_samples: 40,
        },
      },
    });
    expect(figures).toEqual({
      [BASELINE]: 1200,
      [C16_RATE]: 110,
      'CPU speed, memory chunk ms (baseline)': 4.1,
      'CPU speed, memory chunk ms (c16)': 6.2,
      'CPU speed, integer chunk ms (baseline)': 2.31,
      'CPU speed, integer chunk ms (c16)': 2.4,
    });
    expect(comparedFigures([figures])).toEqual([
      { label: BASELINE, better: 'none' },
      { label: C16_RATE, better: 'higher' },
      { label: 'CPU speed, memory chunk ms (baseline)', better: 'none' },
      { label: 'CPU speed, memory chunk ms (c16)', better: 'none' },
      { label: 'CPU speed, integer chunk ms (baseline)', better: 'none' },
      { label: 'CPU speed, integer chunk ms (c16)', better: 'none' },
    ]);
  });

  it('compares the figures some run produced, targets first, the no-op judged neither way', () => {
    const runs = [
      {
        [ECHO_TARGET]: 0.31,
        'gateway no-op c64 /s': 42000,
        'authenticated idempotent echo c64 /s': 13000,
        [BASELINE]: 3000,
      },
      {
        [ECHO_TARGET]: 0.41,
        'gateway no-op c64 /s': 41000,
        'authenticated idempotent echo c64 /s': 16800,
        [BASELINE]: 3100,
      },
    ];
    expect(comparedFigures(runs)).toEqual([
      { label: ECHO_TARGET, better: 'higher' },
      { label: BASELINE, better: 'none' },
      { label: 'gateway no-op c64 /s', better: 'none' },
      { label: 'authenticated idempotent echo c64 /s', better: 'higher' },
    ]);
  });
});

describe("an A/B's warning that the machine moved", () => {
  const MEMORY_C16 = 'CPU speed, memory chunk ms (c16)';

  it('is silent when every probe figure stayed within a quarter over the runs', () => {
    expect(
      speedCaution([
        { [C16_INTEGER_SPEED]: 1.97, [MEMORY_C16]: 5.05 },
        { [C16_INTEGER_SPEED]: 2.06, [MEMORY_C16]: 5.17 },
        { [C16_INTEGER_SPEED]: 2.3, [MEMORY_C16]: 6.2 },
      ]),
    ).toBeNull();
  });

  it('names the figure that spread most, with its range and factor', () => {
    const caution = speedCaution([
      { [C16_INTEGER_SPEED]: 2.06, [MEMORY_C16]: 6.68 },
      { [C16_INTEGER_SPEED]: 5.4, [MEMORY_C16]: 5.6 },
      { [C16_INTEGER_SPEED]: 1.9, [MEMORY_C16]: 6.0 },
    ]);
    expect(caution).toContain(`${C16_INTEGER_SPEED} read 1.9–5.4 (×2.8)`);
    expect(caution).toMatch(/not readable/);
  });

  it('says nothing without two runs that carry the probe', () => {
    expect(speedCaution([])).toBeNull();
    expect(speedCaution([{ [C16_INTEGER_SPEED]: 2 }, { [BASELINE]: 3000 }])).toBeNull();
  });
});
