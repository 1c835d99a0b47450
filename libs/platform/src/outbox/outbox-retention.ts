import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import { Executor, rowsOf } from '../database/data-source';

/**
 * Published outbox rows are deleted once they are older than the retention (OUTBOX_RETENTION_HOURS, 7 days
 * by default). The outbox is the relay's queue, not the event archive: Kafka's topics and their consumers'
 * own records (the dispatcher's webhook_events, the ledger) are. Kept for ever, as they were, the rows
 * (~1.4 KB an event, four events a card payment) only grew: disk, backups and every scan of the table.
 *
 * One statement per batch, oldest first: the `PRUNE_BATCH` rows of lowest id (the primary key's order, which
 * is the order they were written in), and of those, the published ones written before the cutoff. It reads
 * only the head of the table, never scans it, needs no index of its own (none added to the insert's path),
 * and an unpublished row among the oldest is left for the relay whatever its age. Two instances pruning at
 * once delete each row once (the second finds it gone).
 */
export const PRUNE_BATCH = 1000;
/**
 * How long one run goes on while batches come back full. A busy stack writes a few hundred rows a second
 * and a batch takes tens of milliseconds, so a run keeps up with far more than that; a first run over a
 * long backlog stops here and the next run, a minute later, goes on.
 */
const RUN_BUDGET_MS = 20_000;

const PRUNE_OLDEST_PUBLISHED = `
  WITH oldest AS (SELECT id, created_at, published_at FROM outbox ORDER BY id LIMIT $2)
  DELETE FROM outbox o USING oldest
   WHERE o.id = oldest.id AND oldest.published_at IS NOT NULL AND oldest.created_at < $1
  RETURNING o.id`;

/** Deletes one batch; returns how many rows it deleted (fewer than `batch`: nothing more is due now). */
export async function pruneOutbox(executor: Executor, olderThan: Date, batch = PRUNE_BATCH): Promise<number> {
  return rowsOf(await executor.query(PRUNE_OLDEST_PUBLISHED, [olderThan, batch])).length;
}

export interface OutboxRetentionOptions {
  /** 0 keeps every row (an operator who replays from the outbox). */
  retentionHours: number;
  intervalMs?: number;
}

/** Prunes every `intervalMs` (a minute by default) in the app that owns the outbox. */
export class OutboxRetention {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly logger: Pick<Logger, 'info' | 'warn'>,
    private readonly options: OutboxRetentionOptions,
    private readonly onPruned: (rows: number) => void = () => undefined,
  ) {}

  start(): void {
    if (this.options.retentionHours <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.options.intervalMs ?? 60_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One run: batches until one comes back short (or the run's budget); the rows deleted. Never throws. */
  runOnce(): Promise<number> {
    this.running ??= this.prune().finally(() => (this.running = undefined));
    return this.running;
  }

  private async prune(): Promise<number> {
    if (this.options.retentionHours <= 0) return 0;
    const cutoff = new Date(Date.now() - this.options.retentionHours * 3_600_000);
    const until = Date.now() + RUN_BUDGET_MS;
    let deleted = 0;
    try {
      for (;;) {
        const rows = await pruneOutbox(this.dataSource, cutoff);
        deleted += rows;
        this.onPruned(rows);
        if (rows < PRUNE_BATCH || Date.now() >= until) break;
      }
    } catch (error) {
      this.logger.warn({ err: error, deleted }, 'outbox retention run failed; the next run goes on');
    }
    if (deleted > 0)
      this.logger.info(
        { deleted, cutoff: cutoff.toISOString() },
        'pruned published outbox rows past retention',
      );
    return deleted;
  }
}
