import { DataSource } from 'typeorm';
import { createTestDatabase, planningExecutor, TestDatabase } from '@paygrid/testing';
import { dispatcherMigrations } from '../../migrations';
import { defaultKeysSecretVault, migratedDispatcherDatabase } from '../../test/dispatcher-service';
import { DeliveryRepository } from './delivery.repository';

/**
 * A retry's claim of its delivery, planned on a real Postgres whose statistics were taken while nothing was
 * pending, with thousands of retries scheduled since (an endpoint that failed for a while): the planner then
 * believes the partial index `webhook_deliveries_due` empty. The claim names its delivery, so it must probe the
 * primary key; a scan of that index would read every scheduled retry for each one sent.
 */
let database: TestDatabase;
let data: DataSource;
const vault = defaultKeysSecretVault();
const deliveries = new DeliveryRepository(vault);
const BACKLOG = 2_000;

/** `count` deliveries of new events to one endpoint, in `status`, retried `next_attempt_at` from now. */
async function insertDeliveries(prefix: string, count: number, status: string, nextAttemptAt: string | null) {
  await data.query(
    `INSERT INTO webhook_events (event_id, event_name, event_type, source_id, account_id, master_account_id, topic,
                                 created_at, body)
     SELECT $1 || n, 'payout.completed', 'PAYOUT', 'src', 'acct', 'acct', 'topic', now(), '{}'
       FROM generate_series(1, $2) AS n`,
    [prefix, count],
  );
  await data.query(
    `INSERT INTO webhook_deliveries (delivery_id, event_id, endpoint_id, account_id, event_name, status,
                                     attempt_count, next_attempt_at)
     SELECT 'del_' || $1 || n, $1 || n, 'whep_plans', 'acct', 'payout.completed', $3, 1, now() + $4::interval
       FROM generate_series(1, $2) AS n`,
    [prefix, count, status, nextAttemptAt],
  );
}

beforeAll(async () => {
  database = await createTestDatabase('delivery_plans');
  data = await migratedDispatcherDatabase(database.url, dispatcherMigrations(vault.ring));
  await data.query(
    `INSERT INTO webhook_endpoints (endpoint_id, account_id, master_account_id, url, status)
     VALUES ('whep_plans', 'acct', 'acct', 'https://merchant.example/hooks', 'ENABLED')`,
  );
  await insertDeliveries('sent_', BACKLOG, 'succeeded', null);
  await data.query('ANALYZE webhook_deliveries');
  await insertDeliveries('retry_', BACKLOG, 'pending', '1 minute');
}, 60_000);

afterAll(async () => {
  await data?.destroy();
  await database?.drop();
});

describe("a retry's claim under statistics that say nothing is pending", () => {
  it('probes the primary key, not the index of due deliveries', async () => {
    const { executor, plans } = planningExecutor(data);
    await deliveries.claim(executor, 'del_retry_7', 2, 60_000);
    expect(plans).toHaveLength(1);
    expect(plans[0]).toContain('webhook_deliveries_pkey');
    expect(plans[0]).not.toContain('webhook_deliveries_due');
  });

  it('still claims a pending delivery once, and no finished one', async () => {
    expect((await deliveries.claim(data, 'del_retry_8', 2, 60_000))?.delivery.deliveryId).toBe('del_retry_8');
    expect(await deliveries.claim(data, 'del_retry_8', 2, 60_000)).toBeNull();
    expect(await deliveries.claim(data, 'del_sent_8', 2, 60_000)).toBeNull();
  });
});
