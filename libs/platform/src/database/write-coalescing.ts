import { Client } from 'pg';

/**
 * One socket write per connection per tick. In pipeline mode node-postgres writes each query to the
 * socket the moment it is made, one write per query: a transaction's BEGIN and its first statement,
 * or its closing statement and COMMIT, leave as separate writes even when made together. On this
 * 2-vCPU VM a write on a loopback socket is a system call plus a wake-up of the Postgres backend, and
 * the backend then answers each in its own send. Corking the socket at a tick's first query and
 * uncorking it once the tick's synchronous work and promise continuations have run (process.nextTick
 * runs after the microtasks queued so far drain) sends all the queries made in that tick as one write.
 * Nothing waits longer: the uncork happens before the event loop polls for I/O again.
 *
 * What a query means is untouched: each keeps its own Sync, fails alone and is answered in order, as
 * before (database/pipelined-transaction.ts).
 */
const CORKED = Symbol('paygrid.pg.corked');

type Corkable = Client & {
  connection?: { stream?: { cork?: () => void; uncork?: () => void } };
  [CORKED]?: boolean;
};

export function coalesceWritesThisTick(client: Client): void {
  const target = client as Corkable;
  if (target[CORKED]) return;
  const stream = target.connection?.stream;
  if (!stream?.cork || !stream.uncork) return;
  target[CORKED] = true;
  stream.cork();
  process.nextTick(() => {
    target[CORKED] = false;
    stream.uncork?.();
  });
}
