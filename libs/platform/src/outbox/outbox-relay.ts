import { Client, PoolClient, QueryResult } from 'pg';
import { DataSource } from 'typeorm';
import { Producer } from 'kafkajs';
import { Logger } from 'pino';
import { KafkaNames } from '../kafka/kafka-names';
import { ASYNCHRONOUS_COMMIT, GENERIC_PLANS } from '../database/transaction-context';
import { OUTBOX_CHANNEL } from './outbox-writer';
import { tracePublication } from '../tracing/outbox-spans';

/**
 * Publishes committed outbox rows to Kafka, keyed by aggregate id, then marks them sent.
 *
 * Guarantees: at-least-once (a crash after publishing and before marking republishes the rows;
 * consumers dedupe by event id through their inbox) and per-aggregate order (rows go out in id order,
 * and a transaction-scoped advisory lock lets only one relay of a database publish at a time, so
 * replicas cannot interleave batches). Low latency: LISTEN/NOTIFY wakes the relay on every commit; a
 * short poll covers missed notifications and a dropped LISTEN connection. Rows name the logical topic;
 * the relay publishes to that topic of its own stack (KafkaNames), never another stack's.
 */
export interface OutboxRelayOptions {
  batchSize?: number;
  pollIntervalMs?: number;
  /**
   * How long the relay waits, once a commit woke it, before it reads its batch (OUTBOX_GATHER_MS): commits
   * made meanwhile go out in the same batch. 0 reads at once.
   */
  gatherMs?: number;
  /** Test seam: how the relay waits out `gatherMs` (a barrier the test controls, instead of the timer). */
  gather?: () => Promise<void>;
  /** Test seam: runs after Kafka acknowledged a batch and before the rows are marked. */
  afterPublish?: (eventIds: string[]) => Promise<void>;
}

interface OutboxRow {
  id: string;
  event_id: string;
  topic: string;
  message_key: string;
  payload: string;
  headers: Record<string, string>;
  created_at: Date;
}

/** Arbitrary constant: the advisory lock id "one relay per database at a time". */
export const RELAY_LOCK_ID = 748_213_001;

/** The transaction-local setting through which a batch's read knows its lock statement won the lock. */
const RELAY_LOCK_SETTING = 'paygrid.relay_lock';

/**
 * A batch's BEGIN, as one simple query with its settings: the commit made asynchronous, and its statements
 * run on their generic plans. The lock, the read and the mark below take their values as parameters, so the
 * pool's client prepares each on its connection (prepared-statements.ts): Postgres parses them once per
 * connection and reuses one plan. As simple queries with inlined values they were parsed and planned on every
 * batch, 0.2 ms of Postgres a batch alone (pgbench, docs/performance.md §50). On generic plans the mark's plan
 * does not depend on how many ids it is given (its custom plans did, so Postgres kept making them).
 */
export const RELAY_BEGIN = ['BEGIN', ASYNCHRONOUS_COMMIT, GENERIC_PLANS].join('; ');

/** Takes the lock, and keeps whether it was won in a transaction-local setting for the read behind it. */
export const RELAY_LOCK = `SELECT set_config('${RELAY_LOCK_SETTING}', pg_try_advisory_xact_lock($1)::text, true) = 'true' AS acquired`;

/**
 * The batch's rows: a statement of its own behind the lock's, so in READ COMMITTED its snapshot is taken
 * after the lock was won (a snapshot from before could see rows another relay published meanwhile as
 * unpublished); it reads nothing when the lock went to another relay.
 */
export const RELAY_READ = `SELECT id, event_id, topic, message_key, payload, headers, created_at FROM outbox
  WHERE published_at IS NULL AND current_setting('${RELAY_LOCK_SETTING}') = 'true' ORDER BY id LIMIT $1`;

/** Marks a batch's rows sent, once Kafka acknowledged them; COMMIT follows it. */
export const RELAY_MARK = 'UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[])';

/** A statement's answer (a simple query of several statements answers one result each). */
type Answer = Promise<QueryResult | QueryResult[]>;

export class OutboxRelay {
  private running = false;
  private loop?: Promise<void>;
  private listener?: Client;
  private wake?: () => void;
  /**
   * A commit was notified since the current batch began. A notification while a batch is in flight has
   * no sleep to end, and its rows may have committed after the batch's SELECT: without this the relay
   * would sleep a whole poll interval with them waiting (seen as webhook and event latency).
   */
  private notified = false;
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly gatherMs: number;
  published = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly producer: Producer,
    private readonly names: KafkaNames,
    private readonly databaseUrl: string,
    private readonly logger: Logger,
    private readonly options: OutboxRelayOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 200;
    if (!Number.isSafeInteger(this.batchSize) || this.batchSize < 1)
      throw new Error(`relay batch size must be a positive integer: ${this.batchSize}`);
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.gatherMs = options.gatherMs ?? 0;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.listen();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await this.listener?.end().catch(() => undefined);
    this.listener = undefined;
  }

  /**
   * Publishes one batch; returns how many rows went out (0 when idle or another relay holds the lock).
   * Two round trips to Postgres, the fewest the guarantees allow:
   * 1. BEGIN with its settings (RELAY_BEGIN), the lock, and the rows, by a statement of its own after the
   *    lock's, written together;
   * 2. after Kafka acknowledged them, the rows marked and COMMIT, written together.
   * An idle batch (or one whose lock another relay holds) is the first and a ROLLBACK.
   * The commit need not wait for its WAL flush: a mark lost to a Postgres crash only republishes rows,
   * which the at-least-once contract above already allows (consumers dedupe through their inbox). The
   * rows themselves were committed synchronously by their writers before the relay could see them.
   */
  publishBatch(): Promise<number> {
    return this.publishStreak(1);
  }

  /**
   * Publishes batches back to back on one pooled connection, up to `maxBatches`, while there is more to
   * read (a full batch, or a commit notified since the last read); returns how many rows went out.
   * A batch's mark and COMMIT are written with the next batch's BEGIN, lock and read: its
   * rows are in Kafka already, so the mark is on no event's way, and an event committed just after a read
   * waits for one round trip fewer (docs/performance.md §42). One round trip a batch, and one more where
   * the streak ends: the last batch's mark and COMMIT, or the ROLLBACK of a read that found nothing.
   * Each batch is still its own transaction, lock and commit, so a failure anywhere costs at most the
   * republication of the rows not yet marked.
   */
  private async publishStreak(maxBatches: number): Promise<number> {
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    // A transaction is open on the connection from the first query on: BEGIN may succeed where the rest fails.
    let open = false;
    // The ids of the open transaction's batch: in Kafka, not yet marked.
    let unmarked: string[] = [];
    let total = 0;
    try {
      for (let batches = 1; ; batches += 1) {
        this.notified = false;
        open = true;
        // The open batch's mark and COMMIT (when there is one) and the next batch's BEGIN, lock and read, written
        // together: one round trip (the pool pipelines). A mark that fails leaves its transaction aborted, COMMIT
        // answers ROLLBACK and the BEGIN behind it opens a fresh one: each half is read from its own answers.
        const marking = unmarked.length > 0 ? this.writeMark(client, unmarked) : Promise.resolve();
        const reading = this.writeRead(client);
        const [mark, read] = await Promise.allSettled([marking, reading]);
        if (mark.status === 'rejected') throw mark.reason;
        total += unmarked.length;
        unmarked = [];
        if (read.status === 'rejected') throw read.reason;
        const { acquired, rows } = read.value;
        if (!acquired || rows.length === 0) {
          open = false;
          await client.query('ROLLBACK');
          return this.counted(total);
        }
        await this.produce(rows);
        unmarked = rows.map((row) => row.id);
        const more = rows.length === this.batchSize || this.notified;
        if (!more || batches >= maxBatches || !this.running) {
          // COMMIT ends the transaction whatever the mark's fate (a failed one is answered ROLLBACK).
          open = false;
          await this.writeMark(client, unmarked);
          return this.counted(total + unmarked.length);
        }
        // The next read waits its gather with this batch's transaction open: the mark goes with that read.
        if (this.notified && this.gatherMs > 0) await this.gather();
      }
    } catch (error) {
      if (open) await client.query('ROLLBACK').catch(() => undefined);
      this.counted(total);
      throw error;
    } finally {
      await runner.release();
    }
  }

  /**
   * Marks a batch's rows sent and commits (both written at once); rejects when either failed, or when COMMIT
   * answered ROLLBACK (the transaction had aborted), so that only a committed mark counts as published.
   */
  private async writeMark(client: PoolClient, ids: string[]): Promise<void> {
    const [, commit] = await allAnswered([client.query(RELAY_MARK, [ids]), client.query('COMMIT')]);
    if ((commit as QueryResult).command !== 'COMMIT')
      throw new Error(
        `the relay's mark was not committed (COMMIT answered ${(commit as QueryResult).command})`,
      );
  }

  /** A batch's BEGIN with its settings, its lock and its rows (all written at once). */
  private async writeRead(client: PoolClient): Promise<{ acquired: boolean; rows: OutboxRow[] }> {
    const [, lock, read] = (await allAnswered([
      client.query(RELAY_BEGIN),
      client.query(RELAY_LOCK, [RELAY_LOCK_ID]),
      client.query(RELAY_READ, [this.batchSize]),
    ])) as QueryResult[];
    return { acquired: lock.rows[0]?.acquired === true, rows: read.rows as OutboxRow[] };
  }

  /** Sends a batch's rows to Kafka and waits for every replica's acknowledgement. */
  private async produce(rows: OutboxRow[]): Promise<void> {
    const publication = tracePublication(rows, (row) => this.names.eventTopicOf(row.topic));
    await this.producer
      .sendBatch({ topicMessages: groupByTopic(publication.rows, this.names), acks: -1 })
      .then(publication.published, publication.failed);
    await this.options.afterPublish?.(rows.map((row) => row.event_id));
  }

  /** Adds rows marked published to the relay's count, and returns the count of this call. */
  private counted(rows: number): number {
    this.published += rows;
    return rows;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      // A commit woke the relay (or was notified during the last batch): the commits right behind it join its
      // batch. Under load that is fewer batches, so fewer produce requests and fewer intake transactions in
      // every consumer of the events (docs/performance.md §22); when idle it adds gatherMs to an event's way.
      if (this.notified && this.gatherMs > 0) {
        await this.gather();
        if (!this.running) break;
      }
      try {
        await this.publishStreak(Number.POSITIVE_INFINITY);
        failures = 0;
        // A commit notified during the streak's last round trip: its rows may not have been read.
        if (this.notified) continue;
      } catch (error) {
        failures += 1;
        this.logger.error({ err: error, failures }, 'outbox relay failed to publish; will retry');
        await this.reconnectListenerIfNeeded();
      }
      await this.sleep(
        failures > 0 ? Math.min(this.pollIntervalMs * 2 ** failures, 5000) : this.pollIntervalMs,
      );
    }
  }

  private gather(): Promise<void> {
    return this.options.gather?.() ?? new Promise((resolve) => setTimeout(resolve, this.gatherMs));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private async listen(): Promise<void> {
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: 'paygrid-outbox-listener',
    });
    // Every notification is a wake-up (a staged command's first record sends none: deferred-wakes.ts).
    client.on('notification', () => this.wakeNow());
    // A dropped LISTEN connection only costs latency (the poll continues); it is re-opened on failure.
    client.on('error', (error) => this.logger.warn({ err: error }, 'outbox listener connection lost'));
    await client.connect();
    await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    this.listener = client;
  }

  /** A commit was notified: publish at once (again at once if a batch is in flight). */
  private wakeNow(): void {
    this.notified = true;
    this.wake?.();
  }

  private async reconnectListenerIfNeeded(): Promise<void> {
    try {
      await this.listener?.query('SELECT 1');
    } catch {
      await this.listener?.end().catch(() => undefined);
      await this.listen().catch(() => undefined);
    }
  }
}

function groupByTopic(rows: OutboxRow[], names: KafkaNames) {
  const byTopic = new Map<string, { key: string; value: string; headers: Record<string, string> }[]>();
  for (const row of rows) {
    const topic = names.eventTopicOf(row.topic);
    const messages = byTopic.get(topic) ?? [];
    messages.push({
      key: row.message_key,
      value: row.payload,
      headers: { ...row.headers, 'event-id': row.event_id },
    });
    byTopic.set(topic, messages);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

/**
 * Waits for every statement written together and answers them in order, or throws the first one's failure
 * (in order of writing) once all are answered, so that no rejection is left unhandled.
 */
async function allAnswered(sent: Answer[]): Promise<(QueryResult | QueryResult[])[]> {
  const answers = await Promise.allSettled(sent);
  for (const answer of answers) if (answer.status === 'rejected') throw answer.reason;
  return answers.map((answer) => (answer as PromiseFulfilledResult<QueryResult | QueryResult[]>).value);
}
