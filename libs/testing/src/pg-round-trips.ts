import { Query } from 'pg';

type Watched = 'submit' | 'handleReadyForQuery' | 'handleError';

/** One query seen at the wire: written to a connection (`sent`, with its first two words) or answered. */
interface WireEntry {
  connection: object;
  kind: 'sent' | 'answered';
  text: string;
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
      const text = kind === 'sent' ? String(this.text).trim().split(/\s+/).slice(0, 2).join(' ') : '';
      entries.push({ connection: args[0] as object, kind, text });
      return original.apply(this, args);
    };
  };
  watch('submit', 'sent');
  watch('handleReadyForQuery', 'answered');
  watch('handleError', 'answered');

  const of = (connection?: object) =>
    entries.filter((entry) => !connection || entry.connection === connection);
  return {
    /** The first two words of each query written, in order (of one connection, when given). */
    texts: (connection?: object) =>
      of(connection).flatMap((entry) => (entry.kind === 'sent' ? [entry.text] : [])),
    roundTrips: (connection?: object) =>
      of(connection).filter((entry, index, all) => entry.kind === 'sent' && all[index - 1]?.kind !== 'sent')
        .length,
    /**
     * Each transaction seen, per connection: the queries written from its START TRANSACTION to its COMMIT
     * or ROLLBACK (first two words each) and its round trips, until that last one was answered. A pooled
     * connection serves other work before and after (a read, the relay): it is left out.
     */
    transactions: (): { texts: string[]; roundTrips: number }[] => {
      const found: { texts: string[]; roundTrips: number }[] = [];
      for (const connection of new Set(entries.map((entry) => entry.connection))) {
        let open:
          | { texts: string[]; roundTrips: number; sent: number; answered: number; ending: boolean }
          | undefined;
        let previous: WireEntry['kind'] | undefined;
        for (const entry of of(connection)) {
          if (!open && entry.kind === 'sent' && entry.text.startsWith('START TRANSACTION'))
            open = { texts: [], roundTrips: 0, sent: 0, answered: 0, ending: false };
          if (open && entry.kind === 'sent') {
            if (previous !== 'sent' || open.sent === 0) open.roundTrips += 1;
            open.sent += 1;
            open.texts.push(entry.text);
            open.ending ||= /^(COMMIT|ROLLBACK)/.test(entry.text);
          } else if (open) {
            open.answered += 1;
            if (open.ending && open.answered === open.sent) {
              found.push({ texts: open.texts, roundTrips: open.roundTrips });
              open = undefined;
            }
          }
          previous = entry.kind;
        }
      }
      return found;
    },
    restore: () => originals.forEach((original, method) => (prototype[method] = original)),
  };
}
