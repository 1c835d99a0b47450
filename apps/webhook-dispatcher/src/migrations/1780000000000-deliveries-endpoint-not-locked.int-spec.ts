import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createDataSource } from '@paygrid/platform';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { WebhookEvents1710000000100 } from './1710000000100-webhook-events';
import { WebhookDeliveries1740000000000 } from './1740000000000-webhook-deliveries';
import { DeliveriesEndpointNotLocked1780000000000 } from './1780000000000-deliveries-endpoint-not-locked';

/**
 * Inserting a delivery leaves its endpoint's row unlocked (the foreign key that locked it is gone), an
 * endpoint row can no longer be deleted (what kept the key's promise), and the way down restores the key.
 */
describe('deliveries without a lock on their endpoint', () => {
  let database: TestDatabase;
  let data: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('wh_endpoint_lock');
    data = createDataSource({
      url: database.url,
      app: 'webhook-dispatcher',
      migrations: [
        WebhookEvents1710000000100,
        WebhookDeliveries1740000000000,
        DeliveriesEndpointNotLocked1780000000000,
      ],
    });
    await data.initialize();
    await data.runMigrations();
    await data.query(
      `INSERT INTO webhook_endpoints (endpoint_id, account_id, master_account_id, url, status)
       VALUES ('whep_1', 'acct', 'acct', 'https://example.test/hook', 'ENABLED')`,
    );
    await data.query(
      `INSERT INTO webhook_events (event_id, event_name, event_type, source_id, account_id, master_account_id, topic,
                                   envelope, created_at)
       VALUES ('evt_1', 'payout.completed', 'PAYOUT', 'po_1', 'acct', 'acct', 'payouts', '{}', now())`,
    );
  });

  afterAll(async () => {
    await data?.destroy();
    await database?.drop();
  });

  const endpointKeys = async () =>
    (
      await data.query(
        `SELECT conname FROM pg_constraint WHERE conrelid = 'webhook_deliveries'::regclass AND contype = 'f'
            AND confrelid = 'webhook_endpoints'::regclass`,
      )
    ).map((row: { conname: string }) => row.conname);

  it('inserts a delivery without locking the endpoint row, and refuses to delete an endpoint', async () => {
    expect(await endpointKeys()).toEqual([]);
    const inserting = new Client({ connectionString: database.url });
    const locking = new Client({ connectionString: database.url });
    await inserting.connect();
    await locking.connect();
    try {
      await inserting.query('BEGIN');
      await inserting.query(
        `INSERT INTO webhook_deliveries (delivery_id, event_id, endpoint_id, account_id, event_name, status)
         VALUES ('whd_1', 'evt_1', 'whep_1', 'acct', 'payout.completed', 'pending')`,
      );
      // With the foreign key, the open insert holds FOR KEY SHARE on the endpoint: this would fail at once.
      await locking.query('BEGIN');
      const locked = await locking.query(
        `SELECT endpoint_id FROM webhook_endpoints WHERE endpoint_id = 'whep_1' FOR UPDATE NOWAIT`,
      );
      expect(locked.rows).toEqual([{ endpoint_id: 'whep_1' }]);
      await locking.query('ROLLBACK');
      await inserting.query('COMMIT');
    } finally {
      await inserting.end();
      await locking.end();
    }
    await expect(data.query(`DELETE FROM webhook_endpoints WHERE endpoint_id = 'whep_1'`)).rejects.toThrow(
      'webhook endpoints are never deleted',
    );
  });

  it('restores the foreign key and allows deletes again on the way down', async () => {
    await data.undoLastMigration();
    expect(await endpointKeys()).toEqual(['webhook_deliveries_endpoint_id_fkey']);
    await data.query(
      `INSERT INTO webhook_endpoints (endpoint_id, account_id, master_account_id, url, status)
       VALUES ('whep_unused', 'acct', 'acct', 'https://example.test/other', 'ENABLED')`,
    );
    await data.query(`DELETE FROM webhook_endpoints WHERE endpoint_id = 'whep_unused'`);
    await expect(data.query(`DELETE FROM webhook_endpoints WHERE endpoint_id = 'whep_1'`)).rejects.toThrow(
      'violates foreign key constraint',
    );
  });
});
