/**
 * Group commit: many callers' small writes, each awaited by its caller, written together. The first item
 * is written at once (no added latency on a quiet system); items that arrive while a write is in flight
 * wait for it and go out together in the next one, up to `maxBatch` per write. Under load that turns N
 * statements (and N commits) into about one per write's duration.
 *
 * With `gatherMs`, the first item of a quiet moment waits up to that long for company instead (written
 * at once when `maxBatch` items are there sooner): for work whose callers do not wait on it in a
 * request's path, and whose items come too far apart to meet during a write (a capture's settlement, a
 * sandbox delay after it).
 *
 * `write` receives the items in arrival order and returns one result per item, in the same order. If it
 * throws, every item of that batch is rejected with the error (their callers decide what a failed write
 * means, as they would for their own statement); later batches are still written. With `alone`, a failed
 * write of several items is instead retried one item at a time, so that only an item that cannot be
 * written fails its caller.
 */
export interface GroupCommitOptions<T, R> {
  /** How long the first item of a quiet moment waits for others (default 0: written at once). */
  gatherMs?: number;
  /** Writes one item by itself: after a failed write of several, each is tried again this way. */
  alone?: (item: T) => Promise<R>;
}

export class GroupCommit<T, R> {
  private waiting: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  private writing = false;
  private gathering: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 500,
    private readonly options: GroupCommitOptions<T, R> = {},
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.writing) return;
      const gatherMs = this.options.gatherMs ?? 0;
      if (gatherMs > 0 && this.waiting.length < this.maxBatch) {
        this.gathering ??= setTimeout(() => void this.drain(), gatherMs);
        return;
      }
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    clearTimeout(this.gathering);
    this.gathering = undefined;
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        const results = await this.write(batch.map((entry) => entry.item));
        batch.forEach((entry, index) => entry.resolve(results[index]));
      } catch (error) {
        const alone = this.options.alone;
        if (alone && batch.length > 1)
          await Promise.all(batch.map((entry) => alone(entry.item).then(entry.resolve, entry.reject)));
        else for (const entry of batch) entry.reject(error);
      }
    }
    this.writing = false;
  }
}
