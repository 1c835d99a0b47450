/**
 * Group commit: many callers' small writes, each awaited by its caller, written together. The first item
 * is written at once (no added latency on a quiet system); items that arrive while a write is in flight
 * wait for it and go out together in the next one, up to `maxBatch` per write. Under load that turns N
 * statements (and N commits) into about one per write's duration.
 *
 * `write` receives the items in arrival order and returns one result per item, in the same order. If it
 * throws, every item of that batch is rejected with the error (their callers decide what a failed write
 * means, as they would for their own statement); later batches are still written.
 */
export class GroupCommit<T, R> {
  private waiting: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  private writing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 500,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        const results = await this.write(batch.map((entry) => entry.item));
        batch.forEach((entry, index) => entry.resolve(results[index]));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.writing = false;
  }
}
