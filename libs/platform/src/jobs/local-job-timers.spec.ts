import { Logger } from 'pino';
import { JOBS_DEFAULTS, JobRun, ResolvedJobsOptions } from './job.types';
import { LocalJobTimers, MAX_LOCAL_RUNS } from './local-job-timers';

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
  beforeEach(() => jest.useFakeTimers());
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
