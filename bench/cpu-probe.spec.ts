import {
  integerWork,
  memoryWork,
  randomWalk,
  SpeedSample,
  speedFigures,
  threadCpuNs,
  windowFigures,
} from './cpu-probe';

// The sampler's thread loads this module's compiled file: `npm run bench` runs it on every run and records
// its figures. Here, what decides those figures.
describe('the CPU speed probe', () => {
  it('does the same integer work every run, and more iterations are different work', () => {
    expect(integerWork(10_000)).toBe(integerWork(10_000));
    expect(integerWork(10_001)).not.toBe(integerWork(10_000));
  });

  it("reads this thread's CPU clock: it grows by the work the thread does, and hardly while the thread sleeps", async () => {
    const sleep = () => new Promise((resolve) => setTimeout(resolve, 20));
    await sleep();
    const start = threadCpuNs();
    integerWork(20_000_000);
    await sleep();
    const worked = threadCpuNs() - start;
    await sleep();
    const idle = threadCpuNs();
    await sleep();
    expect(worked).toBeGreaterThan(0);
    // Sleeping costs next to nothing: a timer and the read itself, far under the loop's 20 million steps.
    expect(threadCpuNs() - idle).toBeLessThan(worked / 4);
  });

  it('walks one cycle through every slot, the same walk every run', () => {
    const walk = randomWalk(1000);
    expect(randomWalk(1000)).toEqual(walk);
    const seen = new Set<number>();
    let slot = 0;
    for (let step = 0; step < 1000; step++) {
      seen.add(slot);
      slot = memoryWork(walk, 1, slot);
    }
    expect(seen.size).toBe(1000);
    expect(slot).toBe(0);
    expect(memoryWork(walk, 250, memoryWork(walk, 250))).toBe(memoryWork(walk, 500));
  });

  it("reads each kind's median in a window and the window's sample count, nothing for an empty window", () => {
    expect(speedFigures([])).toEqual({});
    const samples: SpeedSample[] = [
      { at: 1, kind: 'integer', cpuMs: 9 },
      { at: 2, kind: 'memory', cpuMs: 4 },
      { at: 3, kind: 'integer', cpuMs: 2.5 },
      { at: 4, kind: 'memory', cpuMs: 6 },
      { at: 5, kind: 'integer', cpuMs: 3 },
      { at: 6, kind: 'memory', cpuMs: 5 },
    ];
    expect(speedFigures(samples)).toEqual({
      cpu_speed_integer_ms: 3,
      cpu_speed_memory_ms: 5,
      cpu_speed_samples: 6,
    });
    expect(speedFigures(samples.slice(0, 1))).toEqual({ cpu_speed_integer_ms: 9, cpu_speed_samples: 1 });
  });

  it('reads only the samples taken inside the window, its ends included', () => {
    const samples = [10, 20, 30, 40, 50].map((at) => ({ at, kind: 'memory' as const, cpuMs: at / 10 }));
    expect(windowFigures(samples, 20, 40)).toEqual({ cpu_speed_memory_ms: 3, cpu_speed_samples: 3 });
    expect(windowFigures(samples, 51, 90)).toEqual({});
  });
});
