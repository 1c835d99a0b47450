/**
 * What happens after an attempt (decisions §8, modelled on svix's worker): a 2xx is success; 410 Gone
 * disables the endpoint; a manual retry is a single attempt; otherwise the next scheduled attempt
 * follows the schedule's delay, spread by a random jitter so that a burst of failures does not retry as
 * a burst. A `Retry-After` on 429/503 is honoured as a lower bound, clamped to a maximum so that a
 * receiver cannot park deliveries for ever. Pure: the clock and the random source are arguments.
 */
export interface RetryPolicy {
  /** Delay before attempt n+1 (ms), for n = 1..length; attempt 1 is immediate. */
  scheduleMs: readonly number[];
  jitterPercent: number;
  retryAfterMaxMs: number;
}

export type AttemptDecision =
  | { kind: 'succeeded' }
  /** 410: the endpoint is gone; disable it and stop. */
  | { kind: 'gone' }
  | { kind: 'retry'; delayMs: number }
  /** No attempts left (or a one-shot manual attempt failed). */
  | { kind: 'failed' };

export interface AttemptResult {
  statusCode: number | null;
  retryAfter?: string;
}

export function isSuccess(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

export function decideAfterAttempt(
  policy: RetryPolicy,
  result: AttemptResult,
  attempt: { number: number; manual: boolean },
  now: Date,
  random: () => number = Math.random,
): AttemptDecision {
  if (isSuccess(result.statusCode)) return { kind: 'succeeded' };
  if (result.statusCode === 410) return { kind: 'gone' };
  if (attempt.manual || attempt.number > policy.scheduleMs.length) return { kind: 'failed' };
  let delayMs = jittered(policy.scheduleMs[attempt.number - 1], policy.jitterPercent, random);
  if (result.statusCode === 429 || result.statusCode === 503) {
    const asked = parseRetryAfter(result.retryAfter, now);
    if (asked !== undefined) delayMs = Math.max(delayMs, Math.min(asked, policy.retryAfterMaxMs));
  }
  return { kind: 'retry', delayMs };
}

export function jittered(delayMs: number, jitterPercent: number, random: () => number): number {
  const spread = (random() * 2 - 1) * (jitterPercent / 100);
  return Math.max(0, Math.round(delayMs * (1 + spread)));
}

/** `Retry-After` as delta-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from now; undefined if unusable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,10}$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (!Number.isFinite(date)) return undefined;
  return Math.max(0, date - now.getTime());
}
