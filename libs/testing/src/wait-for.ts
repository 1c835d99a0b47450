import { withDeadline } from '@paygrid/platform';

/**
 * Polls until `probe` returns a value that is not undefined/false, or fails after the deadline with
 * the last value seen. Tests wait for outcomes this way, never with fixed sleeps.
 *
 * A probe that never settles (a query waiting for a pool connection, a broker call stuck on a dead socket)
 * fails at the deadline too, naming what was awaited: without that bound such a hang surfaced only as
 * jest's bare test timeout, with no word of which wait it was. A test's cleanup that may hang is bounded
 * the same way with the platform's `withDeadline`.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 15_000, intervalMs = 50, what = 'condition' }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const probeMs = Math.max(deadline - Date.now(), 0) + intervalMs;
      const value = await withDeadline(Promise.resolve(probe()), probeMs, `${what} (one probe): no outcome after ${probeMs} ms`);
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
