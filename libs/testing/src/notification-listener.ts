import { Client } from 'pg';
import { waitFor } from './wait-for';

/**
 * A LISTEN connection that keeps the payload of every notification of one channel, in order. Postgres
 * delivers notifications in commit order, so `heardBeforeBarrier` (send one more and wait for it) knows
 * every commit before it has been heard: a test can assert that a notification did *not* come without
 * waiting for a window to pass.
 */
const BARRIER = 'barrier-';

export class NotificationListener {
  readonly heard: string[] = [];

  private constructor(
    private readonly client: Client,
    private readonly channel: string,
  ) {}

  static async start(databaseUrl: string, channel: string): Promise<NotificationListener> {
    const client = new Client({ connectionString: databaseUrl });
    const listener = new NotificationListener(client, channel);
    client.on('notification', (message) => listener.heard.push(message.payload ?? ''));
    await client.connect();
    await client.query(`LISTEN ${channel}`);
    return listener;
  }

  /** The payloads heard before a barrier notification sent now (no barrier included, this one or earlier ones). */
  async heardBeforeBarrier(): Promise<string[]> {
    const barrier = `${BARRIER}${this.heard.length}-${process.hrtime.bigint()}`;
    await this.client.query('SELECT pg_notify($1, $2)', [this.channel, barrier]);
    await waitFor(() => this.heard.includes(barrier), { what: 'the barrier notification' });
    return this.heard.slice(0, this.heard.indexOf(barrier)).filter((payload) => !payload.startsWith(BARRIER));
  }

  async end(): Promise<void> {
    await this.client.end();
  }
}
