import Redis from 'ioredis';
import { Client } from 'pg';
import { APP_CATALOG, AppName, databaseUrlFor } from '@paygrid/platform';
import { WebhookReceiver } from '@paygrid/testing';
import { waitFor } from '@paygrid/testing';
import { isAlive } from '../support/stack-control';
import { CHAOS_DATABASE_SUFFIX, ChaosStack } from './chaos-stack';

/**
 * The faults the chaos suite injects, each as an on-call engineer meets it. `inject` does the damage and
 * resolves when the fault is over from the outside's point of view (a process killed, the broker back
 * after its outage, the receiver listening again); what heals the platform afterwards is the platform's
 * own business, and the suite measures how long it takes.
 *
 * Postgres is the machine's shared server, so it is not restarted: the fault terminates every connection
 * of the chaos stack's databases (pg_terminate_backend), which is what the apps see of a restart.
 */
export interface FaultContext {
  stack: ChaosStack;
  receiver: WebhookReceiver;
  /** What the load has done so far (a fault may wait on it: a barrier it observes, not a sleep). */
  load: { acknowledged(): number; finished(): boolean };
}

export interface Fault {
  name: string;
  /** Needs a broker of the stack's own. */
  needsOwnBroker?: boolean;
  /** Resolves with what it saw go wrong while it lasted (nothing, for most faults). */
  inject(context: FaultContext): Promise<string[] | void>;
}

/** Holding a fault for a set time is the fault itself (an outage has a length), not a wait in a test. */
const hold = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function sigkill(app: AppName): Fault {
  return {
    name: `SIGKILL ${app}`,
    async inject({ stack }) {
      const pid = stack.pidOf(app);
      const restarts = stack.restartsOf(app);
      process.kill(pid, 'SIGKILL');
      // Over once the process is gone; the supervisor starts a new one by itself.
      while (stack.restartsOf(app) === restarts && isAlive(pid)) await hold(20);
    },
  };
}

/**
 * One replica of several killed and kept down (the supervisor holds it) until the live replicas have
 * taken over every partition of its consumer group and the load has had `SERVED_WHILE_DOWN` more steps
 * acknowledged (or has finished): proof that the others carry the work alone and the dead one's commands
 * are not lost. Then it is let back, and the suite measures the time to healthy from there.
 */
export const SERVED_WHILE_DOWN = 8;
const LIVE_REPLICA_WITHIN_MS = 60_000;

function replicaDown(app: AppName): Fault {
  return {
    name: `SIGKILL ${app}#1, kept down`,
    async inject({ stack, load }) {
      const survivors = stack.replicas - 1;
      stack.supervisor.hold(app, 0);
      const pid = stack.pidOf(app, 0);
      try {
        process.kill(pid, 'SIGKILL');
        await waitFor(() => !isAlive(pid), { what: `${app}#1 to die` });
        if (!(await within(() => stack.partitionsHeldBy(app, survivors), 250))) {
          return [
            `${app}'s partitions did not all move to the live replica within ${LIVE_REPLICA_WITHIN_MS / 1000} s`,
          ];
        }
        const before = load.acknowledged();
        if (!(await within(() => load.finished() || load.acknowledged() >= before + SERVED_WHILE_DOWN, 50))) {
          return [
            `fewer than ${SERVED_WHILE_DOWN} steps acknowledged in ${LIVE_REPLICA_WITHIN_MS / 1000} s while ${app}#1 was down`,
          ];
        }
        return [];
      } finally {
        stack.supervisor.release(app, 0);
      }
    },
  };
}

/** Whether `probe` holds within LIVE_REPLICA_WITHIN_MS (polled; a miss is a violation, not a crash). */
function within(probe: () => Promise<boolean> | boolean, intervalMs: number): Promise<boolean> {
  return waitFor(probe, { timeoutMs: LIVE_REPLICA_WITHIN_MS, intervalMs }).then(
    () => true,
    () => false,
  );
}

export const BROKER_OUTAGE_MS = 30_000;
export const RECEIVER_OUTAGE_MS = 20_000;

const brokerOutage: Fault = {
  name: `broker down ${BROKER_OUTAGE_MS / 1000} s`,
  needsOwnBroker: true,
  async inject({ stack }) {
    if (!stack.broker) throw new Error('the broker fault needs the chaos stack on a broker of its own');
    await stack.broker.stop();
    await hold(BROKER_OUTAGE_MS);
    await stack.broker.start();
  },
};

const postgresConnectionsKilled: Fault = {
  name: 'postgres connections terminated',
  async inject({ stack }) {
    const client = new Client({
      connectionString: databaseUrlFor(stack.settings.databaseServerUrl, 'postgres'),
    });
    await client.connect();
    try {
      await client.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname LIKE $1 AND pid <> pg_backend_pid()`,
        [`%${CHAOS_DATABASE_SUFFIX}`],
      );
    } finally {
      await client.end();
    }
  },
};

const redisFlush: Fault = {
  name: 'redis FLUSHDB',
  async inject({ stack }) {
    const redis = new Redis(stack.settings.redisUrl, { maxRetriesPerRequest: 2 });
    try {
      await redis.flushdb();
    } finally {
      redis.disconnect();
    }
  },
};

const receiverOutage: Fault = {
  name: `webhook receiver down ${RECEIVER_OUTAGE_MS / 1000} s`,
  async inject({ receiver }) {
    await receiver.down();
    await hold(RECEIVER_OUTAGE_MS);
    await receiver.up();
  },
};

/**
 * Every fault, in the order `npm run chaos` runs them. With replicas, a process fault kills one replica
 * and keeps it down while the other serves; the infrastructure faults are the same.
 */
export function allFaults(replicas = 1): Fault[] {
  const kill = replicas > 1 ? replicaDown : sigkill;
  const services = APP_CATALOG.filter((app) => app.name !== 'gateway').map((app) => kill(app.name));
  return [...services, kill('gateway'), brokerOutage, postgresConnectionsKilled, redisFlush, receiverOutage];
}

export function faultsNamed(names: string[], replicas = 1): Fault[] {
  const known = allFaults(replicas);
  return names.map((name) => {
    const fault = known.find((candidate) => candidate.name === name);
    if (!fault) throw new Error(`no fault "${name}"; known: ${known.map((each) => each.name).join(', ')}`);
    return fault;
  });
}
