import { randomUUID } from 'node:crypto';
import { DomainEvent, EVENT_ENVELOPE_VERSION, EventCategory, EventTopic } from '@paygrid/contracts';
import { Executor, Statement } from '../database/data-source';
import { currentCorrelationId, CORRELATION_HEADER } from '../logging/correlation';
import { traceHeaders } from '../tracing/propagation';

/**
 * Appends an event to the outbox inside the caller's transaction (architecture rule 3): the event
 * exists if and only if the state change committed. The outbox's statement trigger
 * (outbox-notify-trigger.migration.ts) sends the NOTIFY, which Postgres delivers once per transaction at
 * commit, waking the relay at once; a rolled-back transaction notifies nobody. The row's headers carry
 * the writer's correlation id and trace context, which the relay publishes with the event.
 *
 * Inside runInTransaction (every command and most jobs) the rows are buffered and written by one
 * statement sent with the commit (closingStatement, one-statement.ts): a create-intent's four events
 * cost no round trip of their own. Elsewhere (a bare executor) the row is inserted at once. Buffering
 * changes nothing a reader could see: nobody else sees the rows before the commit, and a rolled-back
 * transaction writes none. (A ROLLBACK TO SAVEPOINT would not drop rows buffered after the savepoint: no
 * code appends an event inside one; the only savepoint, issuing's hold, wraps ledger postings.)
 *
 * Buffered rows do not notify from the trigger: their insert sets the transaction-local `paygrid.outbox_wake`
 * to `after_commit`, and the committer sends the notification as a statement of its own right behind its
 * COMMIT (`outboxWakeOwed`; runInTransaction, runAsOneStatement), in the same write: a NOTIFY inside the
 * transaction would hold a per-database lock through its commit's WAL flush and serialise every notifying
 * commit (outbox-wake-after-commit.migration.ts).
 *
 * A transaction buffered with `deferWake` (a staged command's first one) does not wake the relay at once:
 * the command's final commit, a few milliseconds later, wakes it for both, and a timer of the process sends
 * a wake-up of its own OUTBOX_DEFERRED_WAKE_MS later should none come (deferred-wakes.ts).
 */
export const OUTBOX_CHANNEL = 'paygrid_outbox';
/** The transaction-local setting that keeps the notify trigger silent (outbox-wake-after-commit.migration.ts). */
export const OUTBOX_WAKE_SETTING = 'paygrid.outbox_wake';

export interface NewEvent<D> {
  topic: EventTopic;
  event_name: string;
  event_type: EventCategory;
  source_id: string;
  account_id: string;
  master_account_id: string;
  data: D;
}

interface OutboxRow {
  eventId: string;
  topic: string;
  messageKey: string;
  payload: string;
  headers: string;
}

/** Rows appended in an open transaction, and how its flush wakes the relay, by its executor (its EntityManager). */
const buffered = new WeakMap<object, { rows: OutboxRow[]; deferWake: boolean }>();
/** The notification owed once the transaction that wrote buffered rows through this executor commits. */
const wakesOwed = new WeakMap<object, OutboxWakeOwed>();
/** The value of OUTBOX_WAKE_SETTING with which the trigger leaves the notification to the committer. */
const WAKE_AFTER_COMMIT = 'after_commit';

export interface OutboxBuffering {
  /** The relay is woken by the next plain commit of this process, or a moment later (deferred-wakes.ts). */
  deferWake?: boolean;
}

/** From now on, events appended through `executor` wait for the transaction's closing statement. */
export function bufferOutbox(executor: Executor, options: OutboxBuffering = {}): void {
  buffered.set(executor, { rows: [], deferWake: options.deferWake ?? false });
}

/**
 * Runs `statement` (its parameters $1..$n) with the rows buffered so far written by the same statement,
 * as a data-modifying CTE ahead of it: one round trip for both, and the rows exist iff it commits, as
 * with a transaction's closing statement (closingStatement, one-statement.ts). A job's run records its
 * `done` with it. Rows appended afterwards are still
 * buffered for the closing statement. The statement's result is returned as the executor gives it.
 */
export async function flushOutboxWith(executor: Executor, statement: Statement): Promise<unknown> {
  const flushing = withBufferedOutbox(executor, statement);
  return executor.query(flushing.sql, flushing.params);
}

/**
 * `statement` with the rows buffered so far through `executor` written by it (flushOutboxWith's statement),
 * for a caller that sends it rather than awaiting it (TransactionContext.sendReading). From here on the rows
 * are the statement's: they exist iff it runs in a transaction that commits. `statement` itself when none
 * is buffered.
 */
export function withBufferedOutbox(executor: Executor, statement: Statement): Statement {
  const buffer = buffered.get(executor);
  if (!buffer || buffer.rows.length === 0) return statement;
  const rows = buffer.rows;
  buffer.rows = [];
  owe(executor, buffer.deferWake);
  const events = insertRowsStatement(rows, statement.params.length + 1);
  return {
    sql: `WITH appended_events AS (${events.sql}) ${statement.sql}`,
    params: [...statement.params, ...events.params],
  };
}

/**
 * The rows buffered so far as the INSERT of a data-modifying CTE in the caller's own statement (its five
 * array parameters numbered from `first`), and the buffer closed: an event appended afterwards is
 * inserted on its own through `executor`. `onlyIf`, an SQL condition over the statement's earlier CTEs,
 * writes the rows only when it holds (the row they announce was inserted). Undefined when none is
 * buffered. Its users are in database/one-statement.ts (runAsOneStatement, closingStatement): a write
 * whose one statement carries its events needs no BEGIN and COMMIT of its own.
 */
export function takeBufferedOutbox(
  executor: Executor,
  first: number,
  onlyIf?: string,
): Statement | undefined {
  const buffer = buffered.get(executor);
  buffered.delete(executor);
  if (!buffer || buffer.rows.length === 0) return undefined;
  owe(executor, buffer.deferWake);
  return insertRowsStatement(buffer.rows, first, onlyIf);
}

/** What a committer owes the relay (outboxWakeOwed): a wake-up behind its COMMIT, or one kept in the process. */
export type OutboxWakeOwed = 'now' | 'deferred';

/** The relay's wake-up, which a committer writes right behind its COMMIT (outboxWakeOwed). */
export const OUTBOX_WAKE: Statement = { sql: 'SELECT pg_notify($1, $2)', params: [OUTBOX_CHANNEL, ''] };

/**
 * What the committer of a transaction (or one-statement write) that wrote buffered rows through `executor`
 * owes the relay, once: `now`, OUTBOX_WAKE written right behind its COMMIT (even when the COMMIT rolled
 * back: a relay woken for nothing reads nothing); `deferred`, a wake-up kept in the process once it
 * committed (deferred-wakes.ts); undefined when it wrote none.
 */
export function outboxWakeOwed(executor: Executor): OutboxWakeOwed | undefined {
  const owed = wakesOwed.get(executor);
  wakesOwed.delete(executor);
  return owed;
}

function owe(executor: Executor, deferWake: boolean): void {
  // A deferred transaction that also flushed plainly stays deferred: its command's final commit wakes the relay.
  wakesOwed.set(executor, deferWake ? 'deferred' : 'now');
}

/** One statement for any number of rows, notifying from the trigger; ids (the relay's order) follow the rows' order. */
async function insertRows(executor: Executor, rows: OutboxRow[]): Promise<void> {
  const statement = insertRowsStatement(rows, 1, undefined, true);
  await executor.query(statement.sql, statement.params);
}

/**
 * The insert of `rows`, its five array parameters numbered from `first`. Unless `notifies`, the same
 * statement sets the transaction-local setting that keeps the notify trigger silent (the committer owes
 * the notification, outboxWakeOwed): it runs while the rows are produced, before the statement's trigger
 * fires, and costs no round trip. With `onlyIf`, no row is produced unless that condition holds.
 */
function insertRowsStatement(rows: OutboxRow[], first: number, onlyIf?: string, notifies = false): Statement {
  const [ids, topics, keys, payloads, headers] = [0, 1, 2, 3, 4].map(
    (offset) => `$${first + offset}::text[]`,
  );
  const conditions = [
    ...(notifies
      ? []
      : [`set_config('${OUTBOX_WAKE_SETTING}', '${WAKE_AFTER_COMMIT}', true) = '${WAKE_AFTER_COMMIT}'`]),
    ...(onlyIf ? [`(${onlyIf})`] : []),
  ];
  const where = conditions.length > 0 ? `\n      WHERE ${conditions.join(' AND ')}` : '';
  return {
    sql: `INSERT INTO outbox (event_id, topic, message_key, payload, headers)
     SELECT event_id, topic, message_key, payload, headers::jsonb
       FROM unnest(${ids}, ${topics}, ${keys}, ${payloads}, ${headers})
            WITH ORDINALITY AS appended (event_id, topic, message_key, payload, headers, position)${where}
      ORDER BY position`,
    params: [
      rows.map((row) => row.eventId),
      rows.map((row) => row.topic),
      rows.map((row) => row.messageKey),
      rows.map((row) => row.payload),
      rows.map((row) => row.headers),
    ],
  };
}

export async function appendToOutbox<D>(executor: Executor, event: NewEvent<D>): Promise<DomainEvent<D>> {
  const envelope: DomainEvent<D> = {
    event_id: randomUUID(),
    event_name: event.event_name,
    event_type: event.event_type,
    version: EVENT_ENVELOPE_VERSION,
    source_id: event.source_id,
    account_id: event.account_id,
    master_account_id: event.master_account_id,
    create_time: new Date().toISOString(),
    data: event.data,
  };
  const correlationId = currentCorrelationId();
  const row: OutboxRow = {
    eventId: envelope.event_id,
    topic: event.topic,
    messageKey: event.source_id,
    payload: JSON.stringify(envelope),
    headers: JSON.stringify({
      ...(correlationId ? { [CORRELATION_HEADER]: correlationId } : {}),
      ...traceHeaders(),
    }),
  };
  const buffer = buffered.get(executor);
  if (buffer) buffer.rows.push(row);
  else await insertRows(executor, [row]);
  return envelope;
}
