import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { dispatcherMigrations } from './index';
import { DeliveriesEventNotLocked1800000000000 } from './1800000000000-deliveries-event-not-locked';
import { AttemptsKeyedByDelivery1810000000000 } from './1810000000000-attempts-keyed-by-delivery';
import {
  defaultKeysSecretVault,
  migratedDispatcherDatabase,
  migrationsThrough,
} from '../test/dispatcher-service';

/**
 * The attempt log keyed by (delivery_id, attempt_number) with no other index (migration 1810000000000): an
 * attempt written before it keeps its place, a second attempt of one number is refused as before, and the way
 * down brings back the surrogate id and the event's index.
 */
describe('attempts keyed by their delivery', () => {
  let database: TestDatabase;
  let data: DataSource;
  const vault = defaultKeysSecretVault();
  const migrations = dispatcherMigrations(vault.ring);

  const anAttempt = (executor: DataSource, deliveryId: string, attemptNumber: number) =>
    executor.query(
      `INSERT INTO webhook_attempts (delivery_id, attempt_number, endpoint_id, event_id, trigger, url, attempted_at,
                                     latency_ms, succeeded)
       VALUES ($1, $2, 'whep_1', 'evt_1', 'scheduled', 'https://example.test/hook', now(), 1, true)`,
      [deliveryId, attemptNumber],
    );
  const indexesOf = async () =>
    (
      await data.query(
        `SELECT indexdef FROM pg_indexes WHERE tablename = 'webhook_attempts' ORDER BY indexname`,
      )
    ).map((row: { indexdef: string }) => row.indexdef.replace(/^.* USING btree /, ''));
  const hasAttemptId = async () =>
    (
      await data.query(
        `SELECT 1 FROM information_schema.columns WHERE table_name = 'webhook_attempts' AND column_name = 'attempt_id'`,
      )
    ).length === 1;

  beforeAll(async () => {
    database = await createTestDatabase('wh_attempt_key');
    const before = await migratedDispatcherDatabase(
      database.url,
      migrationsThrough(migrations, DeliveriesEventNotLocked1800000000000),
    );
    await anAttempt(before, 'whd_1', 1);
    await before.destroy();
    // Through this migration only, so that undoing the last migration undoes this one whatever comes after it.
    data = await migratedDispatcherDatabase(
      database.url,
      migrationsThrough(migrations, AttemptsKeyedByDelivery1810000000000),
    );
  });

  afterAll(async () => {
    await data?.destroy();
    await database?.drop();
  });

  it('keys attempts by delivery and number alone, keeping the attempts written before', async () => {
    expect(await indexesOf()).toEqual(['(delivery_id, attempt_number)']);
    expect(await hasAttemptId()).toBe(false);
    expect(await data.query(`SELECT delivery_id, attempt_number FROM webhook_attempts`)).toEqual([
      { delivery_id: 'whd_1', attempt_number: 1 },
    ]);
    await expect(anAttempt(data, 'whd_1', 1)).rejects.toThrow('webhook_attempts_pkey');
    await anAttempt(data, 'whd_1', 2);
  });

  it('brings back the surrogate id, the unique pair and the event index on the way down', async () => {
    await data.undoLastMigration();
    expect(await indexesOf()).toEqual([
      '(delivery_id, attempt_number)',
      '(event_id, attempted_at)',
      '(attempt_id)',
    ]);
    expect(await hasAttemptId()).toBe(true);
    await expect(anAttempt(data, 'whd_1', 2)).rejects.toThrow(
      'webhook_attempts_delivery_id_attempt_number_key',
    );
    expect((await data.query(`SELECT count(*)::int AS n FROM webhook_attempts`))[0].n).toBe(2);
  });
});
