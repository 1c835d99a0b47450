import { attemptTouchesEndpoint, holdsNewDeliveries } from './endpoint-streak';
import { AttemptDecision } from './retry-policy';

const NOW = new Date('2026-11-23T12:00:00Z');
const DISABLE_AFTER_MS = 5 * 24 * 3_600_000;
const since = (ms: number) => new Date(NOW.getTime() - ms);
const retry: AttemptDecision = { kind: 'retry', delayMs: 5_000 };

describe('attemptTouchesEndpoint', () => {
  const touches = (decision: AttemptDecision, status: 'ENABLED' | 'DISABLED', failingSince: Date | null) =>
    attemptTouchesEndpoint(decision, { status, failingSince }, NOW, DISABLE_AFTER_MS);

  it('leaves a healthy endpoint alone on a success, ends a streak on one', () => {
    expect(touches({ kind: 'succeeded' }, 'ENABLED', null)).toBe(false);
    expect(touches({ kind: 'succeeded' }, 'ENABLED', since(60_000))).toBe(true);
  });

  it('writes the first failure of a streak, and none of the failures after it', () => {
    expect(touches(retry, 'ENABLED', null)).toBe(true);
    expect(touches(retry, 'ENABLED', since(60_000))).toBe(false);
    expect(touches({ kind: 'failed' }, 'ENABLED', since(60_000))).toBe(false);
  });

  it('writes when a failure disables: 410 Gone, or a streak as long as the limit', () => {
    expect(touches({ kind: 'gone' }, 'ENABLED', since(60_000))).toBe(true);
    expect(touches(retry, 'ENABLED', since(DISABLE_AFTER_MS - 1))).toBe(false);
    expect(touches(retry, 'ENABLED', since(DISABLE_AFTER_MS))).toBe(true);
  });

  it('reads the endpoint afresh in a transaction when the claim saw it other than enabled', () => {
    expect(touches(retry, 'DISABLED', since(60_000))).toBe(true);
  });
});

describe('holdsNewDeliveries', () => {
  it('holds new deliveries only while the endpoint is in a failure streak', () => {
    expect(holdsNewDeliveries({ failingSince: null })).toBe(false);
    expect(holdsNewDeliveries({ failingSince: since(1) })).toBe(true);
  });
});
