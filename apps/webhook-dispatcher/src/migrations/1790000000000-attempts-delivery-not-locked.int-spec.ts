import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { dispatcherMigrations } from './index';
import { defaultKeysSecretVault, migratedDispatcherDatabase } from '../test/dispatcher-service';

/**
 * The attempt log without a foreign key to its deliveries: a delivery can no longer be deleted (what keeps the
 * key's promise), and the way down restores the key.
 */
describe('attempts without a foreign key to their delivery', () => {
  let database: TestDatabase;
  let data: DataSource;
  const vault = defaultKeysSecretVault();

  beforeAll(async () => {
    database = await createTestDatabase('wh_attempt_key');
    data = await migratedDispatcherDatabase(database.url, dispatcherMigrations(vault.ring));
    await data.query(
      `INSERT INTO webhook_events (event_id, event_name, event_type, source_id, account_id, master_account_id, topic,
                                   created_at, body)
       VALUES ('evt_1', 'payout.completed', 'PAYOUT', 'po_1', 'acct', 'acct', 'payouts', now(), '{}')`,
    );
    await data.query(
      `INSERT INTO webhook_deliveries (delivery_id, event_id, endpoint_id, account_id, event_name, status)
       VALUES ('whd_1', 'evt_1', 'whep_1', 'acct', 'payout.completed', 'pending'),
              ('whd_2', 'evt_1', 'whep_2', 'acct', 'payout.completed', 'pending')`,
    );
  });

  afterAll(async () => {
    await data?.destroy();
    await database?.drop();
  });

  const deliveryKeys = async () =>
    (
      await data.query(
        `SELECT conname FROM pg_constraint WHERE conrelid = 'webhook_attempts'::regclass AND contype = 'f'`,
      )
    ).map((row: { conname: string }) => row.conname);

  it('has no key from an attempt to its delivery, and refuses to delete a delivery', async () => {
    expect(await deliveryKeys()).toEqual([]);
    await expect(data.query(`DELETE FROM webhook_deliveries WHERE delivery_id = 'whd_1'`)).rejects.toThrow(
      'webhook deliveries are never deleted',
    );
  });

  it('restores the foreign key and allows deletes again on the way down', async () => {
    await data.undoLastMigration();
    expect(await deliveryKeys()).toEqual(['webhook_attempts_delivery_id_fkey']);
    await data.query(`DELETE FROM webhook_deliveries WHERE delivery_id = 'whd_2'`);
    await expect(
      data.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt_number, endpoint_id, event_id, trigger, url, attempted_at,
                                       latency_ms, succeeded)
         VALUES ('whd_2', 1, 'whep_2', 'evt_1', 'scheduled', 'https://example.test/hook', now(), 1, true)`,
      ),
    ).rejects.toThrow('violates foreign key constraint');
  });
});
