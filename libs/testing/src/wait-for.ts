/**
 * Polls until `probe` returns a value that is not undefined/false, or fails after the deadline with
 * the last value seen. Tests wait for outcomes this way, never with fixed sleeps.
 *
 * A probe that never settles (a query waiting for a pool connection, a broker call stuck on a dead socket)
 * fails at the deadline too, naming what was awaited: without that bound such a hang surfaced only as
 * jest's bare test timeout, with no word of which wait it was.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 15_000, intervalMs = 50, what = 'condition' }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await withDeadline(Promise.resolve(probe()), Math.max(deadline - Date.now(), 0) + intervalMs, `${what} (one probe)`);
      if (value !== undefined && value !== false) return value as T;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * `work`'s outcome, or an error naming `what` once `timeoutMs` passed without one. For a test's cleanup
 * (stopping a relay, a consumer) whose hang would otherwise hide the assertion that failed before it.
 */
export async function withDeadline<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no outcome after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
