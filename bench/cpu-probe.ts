import { readFileSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { summarise } from './stats';

/**
 * How fast this machine runs the stack's kind of work while the bench measures: a thread of the bench's own
 * that, four times a second, runs one of two fixed chunks of work (no system calls, no allocation) and
 * reports the CPU time it took.
 *
 * - `integer`: an integer loop in registers, the core's own speed;
 * - `memory`: a random walk through 16 MiB, a third of the L3 cache this VM is shown. On a host of its own it
 *   would run from L3; here it runs at main-memory latency (140 ns a step on 3 December), because other
 *   tenants share that cache. The stack's work (V8's heaps, Postgres' buffers, the broker's pages) is of
 *   this kind, and it is what the VM's phases seem to move (docs/performance.md §36).
 *
 * Why: the same code's CPU per create has read 8 ms and 22 ms on different days, and the Postgres baseline
 * 3,000 and 400 transactions a second, while steal time stayed near zero: the host runs our cores slower, it
 * does not take them away. A window's medians say at which speed its figures were taken, and two records
 * (or the two arms of an A/B pair) compare by them first.
 *
 * CPU time, not the wall clock: a window in which the stack keeps both cores busy does not read as a slow
 * machine because the probe waited for a core. What it does read is contention for the core's caches, so
 * under c16 the stack's work beside it is part of the reading. It costs about 1 % of a core, and runs only
 * during the baseline and the acquiring section, the windows the bench reads it for.
 */
const INTEGER_ITERATIONS = 1_000_000;
const MEMORY_STEPS = 30_000;
const WALK_SLOTS = 1 << 22;
const INTERVAL_MS = 250;

export const CHUNK_KINDS = ['memory', 'integer'] as const;
export type ChunkKind = (typeof CHUNK_KINDS)[number];

/** The record's name for a kind's median chunk time in a window. */
export function speedFigureName(kind: ChunkKind): string {
  return `cpu_speed_${kind}_ms`;
}

/** One sample: when it was taken (epoch ms), which chunk, and the CPU time of the chunk and its wake-up (ms). */
export interface SpeedSample {
  at: number;
  kind: ChunkKind;
  cpuMs: number;
}

/**
 * The probe's samples over a bench run. The thread runs only inside the windows the bench reads it for
 * (`during`), so the sections it is not read for (the HTTP benches) run without it.
 */
export class CpuSpeedProbe {
  private readonly samples: SpeedSample[] = [];

  /** Runs `work` with the probe's thread sampling, once the thread has built its walk and compiled its chunks. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    const worker = new Worker(__filename, { workerData: { intervalMs: INTERVAL_MS } satisfies ThreadData });
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.on('message', (message: FromThread) =>
        message === 'ready' ? resolve() : this.samples.push(message),
      );
    });
    try {
      return await work();
    } finally {
      await worker.terminate();
    }
  }

  /** Each kind's median over the samples taken inside [fromMs, toMs], and how many there were. */
  between(fromMs: number, toMs: number): Record<string, number> {
    return windowFigures(this.samples, fromMs, toMs);
  }

  /** The same over every sample of the run. */
  all(): Record<string, number> {
    return speedFigures(this.samples);
  }
}

/** The figures of the samples taken inside [fromMs, toMs]. */
export function windowFigures(samples: SpeedSample[], fromMs: number, toMs: number): Record<string, number> {
  return speedFigures(samples.filter((sample) => sample.at >= fromMs && sample.at <= toMs));
}

/**
 * Each kind's median chunk time (`cpu_speed_memory_ms`, `cpu_speed_integer_ms`: the p50 of bench/stats.ts, as
 * every other figure of the record) and `cpu_speed_samples`; nothing for a window without a sample.
 */
export function speedFigures(samples: SpeedSample[]): Record<string, number> {
  if (samples.length === 0) return {};
  const figures: Record<string, number> = {};
  for (const kind of CHUNK_KINDS) {
    const ofKind = samples.filter((sample) => sample.kind === kind).map((sample) => sample.cpuMs);
    if (ofKind.length > 0) figures[speedFigureName(kind)] = summarise(ofKind).p50_ms;
  }
  return { ...figures, cpu_speed_samples: samples.length };
}

/** xorshift32 steps folded into a checksum; returning it keeps the loop from being optimised away. */
export function integerWork(iterations: number): number {
  // An int32 seed, so the loop is int32 arithmetic from its first step (a seed above 2^31 starts on doubles).
  let state = 0x12345678;
  let checksum = 0;
  for (let step = 0; step < iterations; step++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    checksum = (checksum + (state & 0xffff)) | 0;
  }
  return checksum;
}

/** One random cycle through every slot (Sattolo's algorithm, a fixed seed): each step depends on the last. */
export function randomWalk(slots: number): Int32Array {
  const next = new Int32Array(slots);
  for (let slot = 0; slot < slots; slot++) next[slot] = slot;
  let seed = 12345;
  for (let slot = slots - 1; slot > 0; slot--) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const other = seed % slot;
    const swapped = next[slot];
    next[slot] = next[other];
    next[other] = swapped;
  }
  return next;
}

/** `steps` dependent loads through the walk; returns where it ended so the loads are used. */
export function memoryWork(walk: Int32Array, steps: number, from = 0): number {
  let slot = from;
  for (let step = 0; step < steps; step++) slot = walk[slot];
  return slot;
}

/**
 * The calling thread's CPU time so far, in ns: the first field of /proc/thread-self/schedstat. Linux brings it
 * up to date when the thread is switched out, so read right after a wake-up it is exact, while read mid-run it
 * lags by up to a scheduler tick, longer than a chunk (`process.threadCpuUsage` lags the same way: it read 0
 * and 3.6 ms for the same 2 ms chunk). So the thread reads it at each wake-up, and a sample is the CPU time
 * from one wake-up to the next: the chunk, and the timer and this read around it (a few tenths of a ms).
 */
export function threadCpuNs(): number {
  return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
}

interface ThreadData {
  intervalMs: number;
}
type FromThread = 'ready' | SpeedSample;

if (!isMainThread && parentPort) {
  const port = parentPort;
  const { intervalMs } = workerData as ThreadData;
  const walk = randomWalk(WALK_SLOTS);
  let position = 0;
  const chunks: Record<ChunkKind, () => void> = {
    integer: () => integerWork(INTEGER_ITERATIONS),
    // Carries on where the last chunk stopped, so no chunk starts on slots the one before left in cache.
    memory: () => (position = memoryWork(walk, MEMORY_STEPS, position)),
  };
  // Compiled before the first timed chunk, so no sample is the interpreter's.
  for (let warm = 0; warm < 5; warm++) Object.values(chunks).forEach((chunk) => chunk());
  port.postMessage('ready' satisfies FromThread);
  let last: { kind: ChunkKind; cpuNs: number } | undefined;
  setInterval(() => {
    const cpuNs = threadCpuNs();
    if (last)
      port.postMessage({
        at: Date.now(),
        kind: last.kind,
        cpuMs: (cpuNs - last.cpuNs) / 1e6,
      } satisfies SpeedSample);
    const kind: ChunkKind = last?.kind === 'integer' ? 'memory' : 'integer';
    last = { kind, cpuNs };
    chunks[kind]();
  }, intervalMs);
}
