import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { LOGGER } from '../nest/tokens';
import { JOBS_OPTIONS } from './jobs.tokens';
import { bullJobIdOf, JobRun, ResolvedJobsOptions, RunData } from './job.types';

/**
 * Runs that fall due soon, timed by the process that committed them instead of by BullMQ.
 *
 * A run is one Postgres record whose claim (a lease, conditional on its attempt number) makes it happen
 * once, whoever starts it; BullMQ is the timer and the transport between replicas. For a run due within
 * `localHorizonMs` (the sandbox's settlement 5 s after a capture, a webhook's first retries) a timer of
 * the process that has just committed it is enough, and it spares each run BullMQ's add, the worker's
 * wake-up on the marker and its two Lua scripts: per create-intent, Redis wakes 0.9 times instead of 3.5
 * and burns 0.2 ms instead of 0.9-1.2 (docs/performance.md §16).
 *
 * Nothing is lost that BullMQ would have kept. A timer dies with its process; the run stays due in
 * Postgres, and the reconciler, which from `localGraceMs` after a run's due time treats it as anybody's,
 * hands it to BullMQ (job-reconciler.ts). A run a timer still holds is never "lost from Redis" to this
 * process's reconciler (`holds`). At most `concurrency` local runs go at once (beside the worker's own),
 * and past `MAX_LOCAL_RUNS` waiting here, runs go to BullMQ as before.
 *
 * Runs start on a grid of `LOCAL_SLOT_MS`: those due within one slot start together at its end, one timer
 * for them all, so that their claims share one statement (the runner's claims are group-committed): a
 * capture a second cost a settle claim each, now about one per slot (docs/performance.md §19). A run
 * starts at most one slot late.
 */
export const MAX_LOCAL_RUNS = 10_000;
export const LOCAL_SLOT_MS = 100;

export type LocalRun = (kind: string, data: RunData) => Promise<unknown>;

interface DueRun {
  kind: string;
  data: RunData;
}

@Injectable()
export class LocalJobTimers {
  /** Runs whose due time has not come (each in one of `slots`), by BullMQ job id. */
  private readonly waiting = new Set<string>();
  /** One timer per slot, and the runs it starts. */
  private readonly slots = new Map<number, { timer: NodeJS.Timeout; runs: Map<string, DueRun> }>();
  /** Due runs waiting for a free slot, in the order they fell due (a Map keeps insertion order). */
  private readonly ready = new Map<string, DueRun>();
  /** Runs started here and not yet settled, by BullMQ job id (claimed or about to be). */
  private readonly running = new Map<string, Promise<unknown>>();
  private run?: LocalRun;

  constructor(
    @Inject(JOBS_OPTIONS) private readonly options: ResolvedJobsOptions,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** From now on, runs due soon are timed here and run through `run` (the worker's own path). */
  start(run: LocalRun): void {
    this.run = run;
  }

  /**
   * Takes the runs due within the horizon, while there is room; returns those left for BullMQ. Before
   * `start` and after `stop` it takes none.
   */
  take(runs: readonly JobRun[], traceContext: Record<string, string>): JobRun[] {
    if (!this.run || this.options.localHorizonMs <= 0) return [...runs];
    const horizon = Date.now() + this.options.localHorizonMs;
    const left: JobRun[] = [];
    for (const run of runs) {
      // Already here (waiting, due or running): a second timer would only make a stale run.
      if (this.holds(run)) continue;
      const id = bullJobIdOf(run);
      if (run.dueAt.getTime() > horizon || this.pending() >= MAX_LOCAL_RUNS) {
        left.push(run);
        continue;
      }
      const data: RunData = {
        id: run.id,
        attempt: run.attempt,
        trace_context: run.traceContext ?? traceContext,
      };
      const slotEnd = Math.ceil(run.dueAt.getTime() / LOCAL_SLOT_MS) * LOCAL_SLOT_MS;
      this.slotEnding(slotEnd).runs.set(id, { kind: run.kind, data });
      this.waiting.add(id);
    }
    return left;
  }

  /** True while a timer of this process will start `run`, or has started it and it has not settled. */
  holds(run: Pick<JobRun, 'id' | 'attempt'>): boolean {
    const id = bullJobIdOf(run);
    return this.waiting.has(id) || this.ready.has(id) || this.running.has(id);
  }

  /** Drops the runs not yet started (Postgres keeps them due) and waits for those running. */
  async stop(): Promise<void> {
    this.run = undefined;
    for (const slot of this.slots.values()) clearTimeout(slot.timer);
    this.slots.clear();
    this.waiting.clear();
    this.ready.clear();
    await Promise.allSettled([...this.running.values()]);
  }

  private slotEnding(end: number): { timer: NodeJS.Timeout; runs: Map<string, DueRun> } {
    const existing = this.slots.get(end);
    if (existing) return existing;
    const slot = {
      timer: setTimeout(() => this.startSlot(end), Math.max(0, end - Date.now())),
      runs: new Map<string, DueRun>(),
    };
    this.slots.set(end, slot);
    return slot;
  }

  /** The slot's runs become due together; those that find a free slot start in this one turn. */
  private startSlot(end: number): void {
    const slot = this.slots.get(end);
    this.slots.delete(end);
    for (const [id, due] of slot?.runs ?? []) {
      this.waiting.delete(id);
      this.ready.set(id, due);
    }
    this.drain();
  }

  private pending(): number {
    return this.waiting.size + this.ready.size;
  }

  private drain(): void {
    const run = this.run;
    while (run && this.running.size < this.options.concurrency && this.ready.size > 0) {
      const [id, next] = this.ready.entries().next().value as [string, DueRun];
      this.ready.delete(id);
      const started = run(next.kind, next.data)
        .catch((error: unknown) =>
          this.logger.error(
            { err: error, kind: next.kind, id: next.data.id },
            'local job run failed; the reconciler runs it when its record says it is due',
          ),
        )
        .finally(() => {
          this.running.delete(id);
          this.drain();
        });
      this.running.set(id, started);
    }
  }
}
