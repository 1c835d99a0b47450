import { AsyncResource } from 'node:async_hooks';

/**
 * Chunks of one topic handed over in the same turn of the event loop, applied by one handler call.
 *
 * Why: a consumer takes up to three partitions' batches from one fetch and handles them at once
 * (RUN_DEFAULTS.partitionsConsumedConcurrently). Handled apart, each is a transaction of its own (the
 * dispatcher's and payouts' intakes: BEGIN, two or three statements, COMMIT), and at load they arrive
 * together: one transaction for all of them costs one set of round trips and one commit instead of three
 * (docs/performance.md §17), and payouts' chunks no longer queue behind each other on the merchants'
 * intake lock.
 *
 * What each chunk keeps: its own outcomes (the call's answer is split back, in order), so its offsets are
 * resolved as before; and its isolation. A merged call that fails is retried once per chunk, each alone,
 * so a chunk that cannot succeed fails only itself, as before merging: the other chunks' offsets move on.
 * Retrying a failed call is safe because every handler is idempotent through its inbox (architecture
 * rule 4): whatever a failed call committed, its retry finds as duplicates.
 *
 * Nothing waits for a merge: the chunks handed over while the current callbacks run are merged at the
 * end of that turn (setImmediate), and a lone chunk is applied as it was, one turn later, in the async
 * context it was handed over in (its correlation id, its span). A merged call runs in `mergedScope`
 * (the subscriber gives it a correlation id of its own).
 */
export interface ChunkGroupOptions {
  /** Most events in one merged call (a chunk larger than this is still applied, alone). */
  readonly maxEvents: number;
  /** Runs a merged call (e.g. under a correlation id of its own); a lone chunk runs in its own context. */
  readonly mergedScope?: <R>(work: () => Promise<R>) => Promise<R>;
}

type Apply<E, O> = (events: E[], topic: string) => Promise<O[]>;

interface Waiting<E, O> {
  events: E[];
  /** Runs work in the async context the chunk was handed over in. */
  scope: (work: () => Promise<O[]>) => Promise<O[]>;
  resolve: (outcomes: O[]) => void;
  reject: (error: unknown) => void;
}

export class ChunkCoalescer<E, O> {
  private readonly pending = new Map<string, Waiting<E, O>[][]>();
  private scheduled = false;

  constructor(
    private readonly apply: Apply<E, O>,
    private readonly options: ChunkGroupOptions,
  ) {}

  /** Applies `events` of `topic`, with whatever else of that topic is handed over in this turn. */
  submit(events: E[], topic: string): Promise<O[]> {
    return new Promise<O[]>((resolve, reject) => {
      const groups = this.pending.get(topic) ?? [];
      this.pending.set(topic, groups);
      const last = groups[groups.length - 1];
      const size = last?.reduce((sum, waiting) => sum + waiting.events.length, 0) ?? 0;
      const scope = AsyncResource.bind((work: () => Promise<O[]>) => work());
      const waiting = { events, scope, resolve, reject };
      if (last && size + events.length <= this.options.maxEvents) last.push(waiting);
      else groups.push([waiting]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const pending = [...this.pending];
    this.pending.clear();
    for (const [topic, groups] of pending) for (const group of groups) void this.run(topic, group);
  }

  private async run(topic: string, group: Waiting<E, O>[]): Promise<void> {
    if (group.length === 1) return this.alone(topic, group[0]);
    let outcomes: O[];
    try {
      const events = group.flatMap((waiting) => waiting.events);
      const merged = () => this.apply(events, topic);
      outcomes = await (this.options.mergedScope ? this.options.mergedScope(merged) : merged());
    } catch {
      // Each chunk again on its own: one that cannot succeed must not hold back the others.
      await Promise.all(group.map((waiting) => this.alone(topic, waiting)));
      return;
    }
    let at = 0;
    for (const waiting of group) {
      waiting.resolve(outcomes.slice(at, at + waiting.events.length));
      at += waiting.events.length;
    }
  }

  private async alone(topic: string, waiting: Waiting<E, O>): Promise<void> {
    try {
      waiting.resolve(await waiting.scope(() => this.apply(waiting.events, topic)));
    } catch (error) {
      waiting.reject(error);
    }
  }
}
