import { decideAfterAttempt, jittered, parseRetryAfter, RetryPolicy } from './retry-policy';

const policy: RetryPolicy = {
  scheduleMs: [5_000, 300_000, 1_800_000],
  jitterPercent: 20,
  retryAfterMaxMs: 3_600_000,
};
const now = new Date('2026-03-01T12:00:00Z');
const middle = () => 0.5;
const scheduled = (number: number) => ({ number, manual: false });

describe('decideAfterAttempt', () => {
  it('treats every 2xx as success', () => {
    for (const statusCode of [200, 201, 204, 299]) {
      expect(decideAfterAttempt(policy, { statusCode }, scheduled(1), now)).toEqual({ kind: 'succeeded' });
    }
  });

  it('stops at 410 Gone whatever the attempt', () => {
    expect(decideAfterAttempt(policy, { statusCode: 410 }, scheduled(1), now)).toEqual({ kind: 'gone' });
  });

  it('follows the schedule: the n-th failure waits the n-th delay', () => {
    expect(decideAfterAttempt(policy, { statusCode: 500 }, scheduled(1), now, middle)).toEqual({
      kind: 'retry',
      delayMs: 5_000,
    });
    expect(decideAfterAttempt(policy, { statusCode: null }, scheduled(3), now, middle)).toEqual({
      kind: 'retry',
      delayMs: 1_800_000,
    });
  });

  it('fails once every scheduled attempt was made', () => {
    expect(decideAfterAttempt(policy, { statusCode: 500 }, scheduled(4), now)).toEqual({ kind: 'failed' });
  });

  it('makes a manual retry a single attempt', () => {
    expect(decideAfterAttempt(policy, { statusCode: 500 }, { number: 2, manual: true }, now)).toEqual({
      kind: 'failed',
    });
  });

  it('honours a longer Retry-After on 429 and 503, clamped to the maximum', () => {
    expect(
      decideAfterAttempt(policy, { statusCode: 429, retryAfter: '120' }, scheduled(1), now, middle),
    ).toEqual({
      kind: 'retry',
      delayMs: 120_000,
    });
    expect(
      decideAfterAttempt(policy, { statusCode: 503, retryAfter: '999999' }, scheduled(1), now, middle),
    ).toEqual({
      kind: 'retry',
      delayMs: 3_600_000,
    });
  });

  it('never retries sooner than the schedule because of a short Retry-After', () => {
    expect(
      decideAfterAttempt(policy, { statusCode: 429, retryAfter: '1' }, scheduled(2), now, middle),
    ).toEqual({
      kind: 'retry',
      delayMs: 300_000,
    });
  });

  it('ignores Retry-After on other statuses', () => {
    expect(
      decideAfterAttempt(policy, { statusCode: 500, retryAfter: '600' }, scheduled(1), now, middle),
    ).toEqual({
      kind: 'retry',
      delayMs: 5_000,
    });
  });
});

describe('jittered', () => {
  it('stays within the jitter either side of the delay', () => {
    expect(jittered(1000, 20, () => 0)).toBe(800);
    expect(jittered(1000, 20, () => 0.999999)).toBe(1200);
    expect(jittered(1000, 0, Math.random)).toBe(1000);
  });
});

describe('parseRetryAfter', () => {
  it('reads delta seconds and HTTP dates', () => {
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:01:00 GMT', now)).toBe(60_000);
  });

  it('turns a date in the past into zero and garbage into nothing', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
