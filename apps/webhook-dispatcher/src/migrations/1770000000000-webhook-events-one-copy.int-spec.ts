import { createDataSource } from '@paygrid/platform';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { WebhookEvents1710000000100 } from './1710000000100-webhook-events';
import { WebhookDeliveries1740000000000 } from './1740000000000-webhook-deliveries';
import { WebhookEventsOneCopy1770000000000 } from './1770000000000-webhook-events-one-copy';

/** Events stored with both copies keep their content when the envelope column goes, and come back with it. */
describe('one stored copy of each webhook event', () => {
  let database: TestDatabase;
  afterAll(() => database?.drop());

  it('backfills a missing body from the envelope, drops the envelope, and restores it on the way down', async () => {
    database = await createTestDatabase('wh_one_copy');
    const before = createDataSource({
      url: database.url,
      app: 'webhook-dispatcher',
      migrations: [WebhookEvents1710000000100],
    });
    await before.initialize();
    await before.runMigrations();
    const envelope = {
      event_id: 'evt_old',
      event_name: 'payout.completed',
      event_type: 'PAYOUT',
      version: '1',
      source_id: 'po_1',
      account_id: 'acct_sub',
      master_account_id: 'acct_master',
      create_time: '2026-01-01T00:00:00.000Z',
      data: { amount: 100 },
    };
    await before.query(
      `INSERT INTO webhook_events (event_id, event_name, event_type, source_id, account_id, master_account_id,
                                   topic, envelope, created_at)
       VALUES ('evt_old', 'payout.completed', 'PAYOUT', 'po_1', 'acct_sub', 'acct_master', 'payouts', $1, $2)`,
      [JSON.stringify(envelope), envelope.create_time],
    );
    await before.destroy();

    const after = createDataSource({
      url: database.url,
      app: 'webhook-dispatcher',
      migrations: [WebhookEvents1710000000100, WebhookDeliveries1740000000000, WebhookEventsOneCopy1770000000000],
    });
    await after.initialize();
    try {
      await after.runMigrations();
      const columns = async () =>
        (
          await after.query(
            `SELECT column_name, is_nullable FROM information_schema.columns
              WHERE table_name = 'webhook_events' AND column_name IN ('envelope', 'body') ORDER BY column_name`,
          )
        ).map((row: { column_name: string; is_nullable: string }) => `${row.column_name}:${row.is_nullable}`);
      expect(await columns()).toEqual(['body:NO']);
      const [{ body }] = await after.query(`SELECT body FROM webhook_events WHERE event_id = 'evt_old'`);
      const { master_account_id: _master, ...withoutMaster } = envelope;
      expect(JSON.parse(body)).toEqual(withoutMaster);

      await after.undoLastMigration();
      expect(await columns()).toEqual(['body:YES', 'envelope:NO']);
      const [{ restored }] = await after.query(
        `SELECT envelope AS restored FROM webhook_events WHERE event_id = 'evt_old'`,
      );
      expect(restored).toEqual(envelope);
    } finally {
      await after.destroy();
    }
  });
});
