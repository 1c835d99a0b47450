/** Latency percentiles and throughput from raw samples (milliseconds). */
export interface LatencySummary {
  count: number;
  p50_ms: number;
  p99_ms: number;
  mean_ms: number;
}

export function summarise(samples: number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length);
  return { count: sorted.length, p50_ms: round(at(0.5)), p99_ms: round(at(0.99)), mean_ms: round(mean) };
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function elapsedMs(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Runs `work` from `concurrency` loops until `durationMs` passes; returns per-call latencies. */
export async function closedLoop(concurrency: number, durationMs: number, work: () => Promise<unknown>): Promise<{ latencies: number[]; seconds: number; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = Date.now() + durationMs;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < deadline) {
        const begun = process.hrtime.bigint();
        try {
          await work();
          latencies.push(elapsedMs(begun));
        } catch {
          errors += 1;
        }
      }
    }),
  );
  return { latencies, seconds: elapsedMs(started) / 1000, errors };
}
