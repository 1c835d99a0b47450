import { Query } from 'pg';

type Watched = 'submit' | 'handleReadyForQuery' | 'handleError';

/** One query seen at the wire: written to a connection (`sent`, with its text) or answered. */
interface WireEntry {
  connection: object;
  kind: 'sent' | 'answered';
  /** The query's whole text, for a sent one ('' for an answer). */
  statement: string;
}

/**
 * Watches node-postgres at the wire, in this process, until `restore()`: each query written to a
 * connection (`submit`) and each one answered (its ReadyForQuery, or its error), per connection.
 * A round trip is a run of writes with no answer between them: a query written before the previous one
 * was answered travelled with it.
 *
 * `transactions()` cuts each connection's queries into its transactions, so that other work (a relay, a
 * listener, a read before) does not count.
 */
export function watchPgRoundTrips() {
  const entries: WireEntry[] = [];
  const prototype = Query.prototype as unknown as Record<Watched, (...args: unknown[]) => unknown>;
  const originals = new Map<Watched, (...args: unknown[]) => unknown>();
  const watch = (method: Watched, kind: WireEntry['kind']) => {
    const original = prototype[method];
    originals.set(method, original);
    prototype[method] = function (this: { text?: string }, ...args: unknown[]) {
      entries.push({
        // submit(connection) and handleReadyForQuery(connection); handleError(error, connection).
        connection: (method === 'handleError' ? args[1] : args[0]) as object,
        kind,
        statement: kind === 'sent' ? String(this.text) : '',
      });
      return original.apply(this, args);
    };
  };
  watch('submit', 'sent');
  watch('handleReadyForQuery', 'answered');
  watch('handleError', 'answered');

  return {
    /** The first two words of each query written, in order. */
    texts: () => textsOf(entries),
    roundTrips: () => roundTripsOf(entries),
    /** Each connection's queries (first two words each) and round trips, in the order connections were first used. */
    connections: () =>
      [...new Set(entries.map((entry) => entry.connection))].map((connection) => {
        const own = entries.filter((entry) => entry.connection === connection);
        return { texts: textsOf(own), roundTrips: roundTripsOf(own) };
      }),
    /**
     * Each transaction seen, per connection: the queries written from its START TRANSACTION to its COMMIT
     * or ROLLBACK (first two words each, and whole as `statements`) and its round trips, until that last one
     * was answered. A pooled
     * connection serves other work before and after (a read, the relay): it is left out.
     */
    transactions: () =>
      [...new Set(entries.map((entry) => entry.connection))]
        .flatMap((connection) => transactionsOf(entries.filter((entry) => entry.connection === connection)))
        .map((transaction) => ({
          /** node-postgres' Connection of the client that ran it (`client.connection`). */
          connection: transaction[0].connection,
          texts: textsOf(transaction),
          statements: statementsOf(transaction),
          roundTrips: roundTripsOf(transaction),
        })),
    restore: () => originals.forEach((original, method) => (prototype[method] = original)),
  };
}

const statementsOf = (entries: WireEntry[]) =>
  entries.flatMap((entry) => (entry.kind === 'sent' ? [entry.statement] : []));

/** The first two words of each query written. */
const textsOf = (entries: WireEntry[]) =>
  statementsOf(entries).map((statement) => statement.trim().split(/\s+/).slice(0, 2).join(' '));

/** Runs of writes with no answer between them. */
const roundTripsOf = (entries: WireEntry[]) =>
  entries.filter((entry, index) => entry.kind === 'sent' && entries[index - 1]?.kind !== 'sent').length;

/** The relay's wake-up a committer writes right behind its COMMIT (outbox-writer.ts, outboxWakeOwed). */
const isWake = (statement: string) => statement.trimStart().startsWith('SELECT pg_notify(');

/**
 * One connection's entries cut into its transactions: from START TRANSACTION to the answer of its end, the
 * relay's wake-up written right behind its COMMIT included.
 */
function transactionsOf(entries: WireEntry[]): WireEntry[][] {
  const found: WireEntry[][] = [];
  let open: WireEntry[] | undefined;
  for (const entry of entries) {
    if (!open && entry.kind === 'sent' && entry.statement.trimStart().startsWith('START TRANSACTION'))
      open = [];
    if (!open) continue;
    open.push(entry);
    const statements = statementsOf(open);
    const answered = open.length - statements.length;
    const ending = statements.filter((statement) => !isWake(statement));
    if (/^(COMMIT|ROLLBACK)/.test(ending[ending.length - 1] ?? '') && answered === statements.length) {
      found.push(open);
      open = undefined;
    }
  }
  return found;
}
