import { Logger } from 'pino';
import { JOBS_DEFAULTS, JobRun, ResolvedJobsOptions } from './job.types';
import { LOCAL_SLOT_MS, LocalJobTimers, MAX_LOCAL_RUNS } from './local-job-timers';

const logger = { error: jest.fn() } as unknown as Logger;
const options = (overrides: Partial<ResolvedJobsOptions> = {}): ResolvedJobsOptions => ({
  ...JOBS_DEFAULTS,
  queue: 'unit',
  concurrency: 2,
  ...overrides,
});
const runIn = (ms: number, id = `job_${ms}`): JobRun => ({
  kind: 'unit_kind',
  id,
  attempt: 1,
  dueAt: new Date(Date.now() + ms),
});

describe('LocalJobTimers', () => {
  // The clock starts at a slot's start, so a run due in N ms (a multiple of the slot) starts at N ms.
  beforeEach(() => jest.useFakeTimers({ now: 1_000 * LOCAL_SLOT_MS }));
  afterEach(() => jest.useRealTimers());

  it('takes nothing before it is started, or with no horizon', () => {
    const idle = new LocalJobTimers(options(), logger);
    expect(idle.take([runIn(100)], {})).toHaveLength(1);

    const off = new LocalJobTimers(options({ localHorizonMs: 0 }), logger);
    off.start(jest.fn());
    expect(off.take([runIn(100)], {})).toHaveLength(1);
  });

  it('times the runs due within the horizon and leaves the later ones for BullMQ', async () => {
    const started: string[] = [];
    const timers = new LocalJobTimers(options({ localHorizonMs: 10_000 }), logger);
    timers.start(async (_kind, data) => {
      started.push(data.id);
    });
    const soon = runIn(1_000, 'job_soon');
    const late = runIn(60_000, 'job_late');

    expect(timers.take([soon, late], { traceparent: 'x' })).toEqual([late]);
    expect(timers.holds(soon)).toBe(true);
    expect(started).toEqual([]);

    await jest.advanceTimersByTimeAsync(1_000);
    expect(started).toEqual(['job_soon']);
    expect(timers.holds(soon)).toBe(false);
  });

  it('starts the runs due within one slot together, at its end', async () => {
    const startedAt = new Map<string, number>();
    const timers = new LocalJobTimers(options({ concurrency: 8 }), logger);
    timers.start(async (_kind, data) => {
      startedAt.set(data.id, Date.now());
    });
    const slotStart = Date.now();
    timers.take(
      [runIn(1, 'job_early'), runIn(LOCAL_SLOT_MS, 'job_late'), runIn(LOCAL_SLOT_MS + 1, 'job_next')],
      {},
    );

    await jest.advanceTimersByTimeAsync(LOCAL_SLOT_MS - 1);
    expect(startedAt.size).toBe(0);

    await jest.advanceTimersByTimeAsync(2 * LOCAL_SLOT_MS);
    expect(Object.fromEntries(startedAt)).toEqual({
      job_early: slotStart + LOCAL_SLOT_MS,
      job_late: slotStart + LOCAL_SLOT_MS,
      job_next: slotStart + 2 * LOCAL_SLOT_MS,
    });
  });

  it('runs at most `concurrency` at once; the others wait, held, for a slot', async () => {
    const finish: (() => void)[] = [];
    const timers = new LocalJobTimers(options({ concurrency: 2 }), logger);
    timers.start(() => new Promise<void>((resolve) => finish.push(resolve)));
    const runs = [runIn(0, 'job_a'), runIn(0, 'job_b'), runIn(0, 'job_c')];
    timers.take(runs, {});

    await jest.advanceTimersByTimeAsync(0);
    expect(finish).toHaveLength(2);
    expect(runs.map((run) => timers.holds(run))).toEqual([true, true, true]);

    finish[0]();
    await jest.advanceTimersByTimeAsync(0);
    expect(finish).toHaveLength(3);
    expect(timers.holds(runs[0])).toBe(false);
  });

  it(`leaves runs to BullMQ once ${MAX_LOCAL_RUNS} wait here`, () => {
    const timers = new LocalJobTimers(options(), logger);
    timers.start(jest.fn());
    const many = Array.from({ length: MAX_LOCAL_RUNS + 3 }, (_, index) => runIn(5_000, `job_${index}`));

    expect(timers.take(many, {}).map((run) => run.id)).toEqual(
      many.slice(MAX_LOCAL_RUNS).map((run) => run.id),
    );
  });

  it('drops what has not started when stopped, and then takes nothing', async () => {
    const run = jest.fn(async () => undefined);
    const timers = new LocalJobTimers(options(), logger);
    timers.start(run);
    const pending = runIn(1_000);
    timers.take([pending], {});

    await timers.stop();
    await jest.advanceTimersByTimeAsync(2_000);
    expect(run).not.toHaveBeenCalled();
    expect(timers.holds(pending)).toBe(false);
    expect(timers.take([runIn(100)], {})).toHaveLength(1);
  });
});
