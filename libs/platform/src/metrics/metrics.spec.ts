import { Metrics } from './metrics';

describe('Metrics', () => {
  afterEach(() => jest.restoreAllMocks());

  it('samples the event-loop delay at the coarse precision, not a 10 ms timer that wakes an idle app', () => {
    // The core module object prom-client calls through (a namespace import would be a copy).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const perfHooks: typeof import('perf_hooks') = require('perf_hooks');
    const monitor = jest.spyOn(perfHooks, 'monitorEventLoopDelay');

    new Metrics('test');

    expect(monitor).toHaveBeenCalledTimes(1);
    expect(monitor.mock.calls[0][0]?.resolution).toBeGreaterThanOrEqual(100);
  });

  it('still reports the event-loop lag to Prometheus', async () => {
    const metrics = new Metrics('test');

    const text = await metrics.registry.metrics();

    expect(text).toContain('nodejs_eventloop_lag_p99_seconds{app="test"}');
  });
});
