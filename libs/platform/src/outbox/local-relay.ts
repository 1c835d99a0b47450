import { DataSource } from 'typeorm';

/**
 * The outbox relay that runs in this process for a database, as its committers see it (deferred-wakes.ts).
 *
 * Why: the wake-up a committer owes the relay is a NOTIFY written behind its COMMIT. That NOTIFY is a
 * transaction of its own on the committer's connection, a wake-up of the LISTEN backend and a read on the
 * relay's listener connection: for a card create, about one commit of acquiring's database and two process
 * wake-ups (docs/performance.md §43). When the relay that will read the rows runs in the committing process
 * and holds the lock, a function call after the commit does the same work.
 *
 * "Holds the lock" means its last batch read won the advisory lock. Replicas each run a relay, and only one
 * of them publishes at a time. A process whose relay lost the lock on its last read notifies as before, so
 * the relay that holds the lock hears the commit. A relay woken in its process that then loses the lock
 * forwards the wake-up as a NOTIFY (OutboxRelay). In both cases no commit waits for the poll.
 */
export interface LocalRelay {
  /** Whether this relay's last read won the lock. */
  holdsLock(): boolean;
  /** A commit with events is done: read now. */
  wakeLocally(): void;
}

const relays = new WeakMap<DataSource, LocalRelay>();

/** From a relay's start to its stop: commits on `dataSource` may wake it in the process. */
export function registerLocalRelay(dataSource: DataSource, relay: LocalRelay): void {
  relays.set(dataSource, relay);
}

export function unregisterLocalRelay(dataSource: DataSource, relay: LocalRelay): void {
  if (relays.get(dataSource) === relay) relays.delete(dataSource);
}

/** The relay that runs here for `dataSource`, whether or not it holds the lock. */
export function localRelayOf(dataSource: DataSource): LocalRelay | undefined {
  return relays.get(dataSource);
}

/** The relay to wake in the process instead of a NOTIFY: one that runs here and holds the lock. */
export function lockHoldingRelayOf(dataSource: DataSource): LocalRelay | undefined {
  const relay = relays.get(dataSource);
  return relay?.holdsLock() ? relay : undefined;
}
