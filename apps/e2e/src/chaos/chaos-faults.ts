import Redis from 'ioredis';
import { Client } from 'pg';
import { APP_CATALOG, AppName, databaseUrlFor } from '@paygrid/platform';
import { WebhookReceiver } from '@paygrid/testing';
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
}

export interface Fault {
  name: string;
  /** Needs a broker of the stack's own. */
  needsOwnBroker?: boolean;
  inject(context: FaultContext): Promise<void>;
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

/** Every fault, in the order `npm run chaos` runs them. */
export const ALL_FAULTS: Fault[] = [
  ...APP_CATALOG.filter((app) => app.name !== 'gateway').map((app) => sigkill(app.name)),
  sigkill('gateway'),
  brokerOutage,
  postgresConnectionsKilled,
  redisFlush,
  receiverOutage,
];

export function faultsNamed(names: string[]): Fault[] {
  return names.map((name) => {
    const fault = ALL_FAULTS.find((candidate) => candidate.name === name);
    if (!fault)
      throw new Error(`no fault "${name}"; known: ${ALL_FAULTS.map((known) => known.name).join(', ')}`);
    return fault;
  });
}
