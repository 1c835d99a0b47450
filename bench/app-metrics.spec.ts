import { counterIn, gcPerOperation, gcTotalsIn } from './app-metrics';

const page = (
  minor: [number, number],
  major: [number, number],
) => `# HELP nodejs_gc_duration_seconds Garbage collection duration by kind.
# TYPE nodejs_gc_duration_seconds histogram
nodejs_gc_duration_seconds_bucket{le="0.001",kind="minor",app="acquiring"} 0
nodejs_gc_duration_seconds_sum{kind="minor",app="acquiring"} ${minor[0]}
nodejs_gc_duration_seconds_count{kind="minor",app="acquiring"} ${minor[1]}
nodejs_gc_duration_seconds_sum{app="acquiring",kind="major"} ${major[0]}
nodejs_gc_duration_seconds_count{app="acquiring",kind="major"} ${major[1]}
nodejs_eventloop_lag_max_seconds{app="acquiring"} 0.12
`;

describe('gcTotalsIn', () => {
  it('reads each kind of pause, whatever the order of its labels', () => {
    expect(gcTotalsIn(page([0.5, 40], [0.06, 2]))).toEqual({
      minor: { seconds: 0.5, count: 40 },
      major: { seconds: 0.06, count: 2 },
    });
  });

  it('finds nothing on a page without the histogram', () => {
    expect(gcTotalsIn('nodejs_eventloop_lag_max_seconds{app="gateway"} 0.1\n')).toEqual({});
  });
});

describe('gcPerOperation', () => {
  const at = (minor: [number, number], major: [number, number]) =>
    new Map([['webhook-dispatcher', page(minor, major)]]);

  it('gives the pauses per operation and the mean scavenge between two samples', () => {
    const figures = gcPerOperation(at([0.5, 40], [0.06, 2]), at([0.8, 60], [0.1, 3]), 200);
    // (0.3 + 0.04) s over 200 operations; 0.3 s over 20 scavenges.
    expect(figures).toEqual({
      gc_pause_ms_per_op_webhook_dispatcher: 1.7,
      gc_scavenge_avg_ms_webhook_dispatcher: 15,
    });
  });

  it('reports nothing for an app missing from a sample, and no mean without scavenges', () => {
    const none = new Map<string, string>();
    expect(gcPerOperation(none, at([0.5, 40], [0, 0]), 10)).toEqual({});
    expect(gcPerOperation(at([0.5, 40], [0, 0]), at([0.5, 40], [0.02, 1]), 10)).toEqual({
      gc_pause_ms_per_op_webhook_dispatcher: 2,
      gc_scavenge_avg_ms_webhook_dispatcher: 0,
    });
  });
});

describe('counterIn', () => {
  const text = `paygrid_outbox_batches_total{app="acquiring"} 42
paygrid_webhook_first_attempts_total{path="direct",app="webhook-dispatcher"} 7
paygrid_webhook_first_attempts_total{path="queued",app="webhook-dispatcher"} 2
`;

  it('reads a counter whatever its default labels, or the series a label picks', () => {
    expect(counterIn(text, 'paygrid_outbox_batches_total')).toBe(42);
    expect(counterIn(text, 'paygrid_webhook_first_attempts_total', 'path="queued"')).toBe(2);
  });

  it('reads 0 for a counter not on the page', () => {
    expect(counterIn(text, 'paygrid_missing_total')).toBe(0);
  });
});
