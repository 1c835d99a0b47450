import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { dispatcherMigrations } from './index';
import { DeliveriesEventNotLocked1800000000000 } from './1800000000000-deliveries-event-not-locked';
import {
  defaultKeysSecretVault,
  migratedDispatcherDatabase,
  migrationsThrough,
} from '../test/dispatcher-service';

/**
 * The deliveries and the attempt log without foreign keys to what they refer to (migrations 1790000000000 and
 * 1800000000000): neither a delivery nor an event can be deleted (what keeps the keys' promise), and each way
 * down restores its key.
 */
describe('deliveries and attempts without foreign keys', () => {
  let database: TestDatabase;
  let data: DataSource;
  const vault = defaultKeysSecretVault();

  beforeAll(async () => {
    database = await createTestDatabase('wh_delivery_keys');
    // The schema up to the two migrations under test, so that undoing the last migration undoes them in turn.
    data = await migratedDispatcherDatabase(
      database.url,
      migrationsThrough(dispatcherMigrations(vault.ring), DeliveriesEventNotLocked1800000000000),
    );
    await data.query(
      `INSERT INTO webhook_events (event_id, event_name, event_type, source_id, account_id, master_account_id, topic,
                                   created_at, body)
       VALUES ('evt_1', 'payout.completed', 'PAYOUT', 'po_1', 'acct', 'acct', 'payouts', now(), '{}'),
              ('evt_2', 'payout.completed', 'PAYOUT', 'po_2', 'acct', 'acct', 'payouts', now(), '{}')`,
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

  const keysOf = async (table: string) =>
    (
      await data.query(
        `SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f' ORDER BY 1`,
        [table],
      )
    ).map((row: { conname: string }) => row.conname);

  const anAttempt = (deliveryId: string) =>
    data.query(
      `INSERT INTO webhook_attempts (delivery_id, attempt_number, endpoint_id, event_id, trigger, url, attempted_at,
                                     latency_ms, succeeded)
       VALUES ($1, 1, 'whep_2', 'evt_1', 'scheduled', 'https://example.test/hook', now(), 1, true)`,
      [deliveryId],
    );

  it('has no key from an attempt or a delivery, and refuses to delete a delivery or an event', async () => {
    expect(await keysOf('webhook_attempts')).toEqual([]);
    expect(await keysOf('webhook_deliveries')).toEqual([]);
    await expect(data.query(`DELETE FROM webhook_deliveries WHERE delivery_id = 'whd_1'`)).rejects.toThrow(
      'webhook deliveries are never deleted',
    );
    await expect(data.query(`DELETE FROM webhook_events WHERE event_id = 'evt_2'`)).rejects.toThrow(
      'webhook events are never deleted',
    );
  });

  it("restores the deliveries' key to their event on the way down, and allows deleting events again", async () => {
    await data.undoLastMigration();
    expect(await keysOf('webhook_deliveries')).toEqual(['webhook_deliveries_event_id_fkey']);
    await data.query(`DELETE FROM webhook_events WHERE event_id = 'evt_2'`);
    await expect(data.query(`DELETE FROM webhook_events WHERE event_id = 'evt_1'`)).rejects.toThrow(
      'violates foreign key constraint',
    );
  });

  it("then restores the attempts' key to their delivery, and allows deleting deliveries again", async () => {
    await data.undoLastMigration();
    expect(await keysOf('webhook_attempts')).toEqual(['webhook_attempts_delivery_id_fkey']);
    await data.query(`DELETE FROM webhook_deliveries WHERE delivery_id = 'whd_2'`);
    await expect(anAttempt('whd_2')).rejects.toThrow('violates foreign key constraint');
    await anAttempt('whd_1');
  });
});
