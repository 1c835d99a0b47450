import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { dispatcherMigrations } from './migrations';
import { DeliveryRepository, NewDelivery } from './modules/deliveries/delivery.repository';
import { defaultKeysSecretVault, migratedDispatcherDatabase } from './test/dispatcher-service';

/**
 * Deliveries held behind a failing endpoint, at the repository on a real Postgres of their own (no
 * dispatcher running, so no reconciler releases anything behind the test's back): what the intake's insert
 * holds, what a success releases, and what the reconciler's pass releases so that no held delivery is
 * stranded. The dispatcher's behaviour end to end is in webhook-delivery.int-spec.ts ("a failing endpoint").
 */
let database: TestDatabase;
let data: DataSource;
const vault = defaultKeysSecretVault();
const deliveries = new DeliveryRepository(vault);

beforeAll(async () => {
  database = await createTestDatabase('webhook_held');
  data = await migratedDispatcherDatabase(database.url, dispatcherMigrations(vault.ring));
}, 60_000);

afterAll(async () => {
  await data?.destroy();
  await database?.drop();
});

/** An enabled endpoint, failing since `failingSince` (null: healthy); its id is `endpointId` if given. */
async function anEndpoint(failingSince: Date | null, endpointId = `whep_${randomUUID()}`): Promise<string> {
  await data.query(
    `INSERT INTO webhook_endpoints (endpoint_id, account_id, master_account_id, url, status, failing_since)
     VALUES ($1, 'acct', 'acct', 'https://merchant.example/hooks', 'ENABLED', $2)`,
    [endpointId, failingSince],
  );
  return endpointId;
}

/** The endpoint's status as a delete or a disable leaves it (their deliveries' settling is not this file's). */
async function setStatus(endpointId: string, status: 'DELETED' | 'DISABLED'): Promise<void> {
  await data.query('UPDATE webhook_endpoints SET status = $2 WHERE endpoint_id = $1', [endpointId, status]);
}

/** A stored event's delivery to `endpointId`, as the intake pairs them. */
async function aPair(endpointId: string, held: boolean): Promise<NewDelivery> {
  const eventId = randomUUID();
  await data.query(
    `INSERT INTO webhook_events (event_id, event_name, event_type, source_id, account_id, master_account_id, topic,
                                 created_at, body)
     VALUES ($1, 'payout.completed', 'PAYOUT', 'src', 'acct', 'acct', 'topic', now(), '{}')`,
    [eventId],
  );
  return { eventId, eventName: 'payout.completed', endpointId, accountId: 'acct', held };
}

/** A delivery to `endpointId`, inserted as the intake does. */
async function aDelivery(endpointId: string, held: boolean) {
  const [inserted] = await deliveries.insertMany(data, [await aPair(endpointId, held)]);
  return inserted;
}

async function nextAttemptAt(deliveryId: string): Promise<Date | null> {
  const [row] = await data.query('SELECT next_attempt_at FROM webhook_deliveries WHERE delivery_id = $1', [
    deliveryId,
  ]);
  return row.next_attempt_at;
}

/** A delivery's schedule spent: failed, as its last failed attempt leaves it. */
async function spend(deliveryId: string): Promise<void> {
  await data.query(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, completed_at = now()
      WHERE delivery_id = $1`,
    [deliveryId],
  );
}

describe('deliveries held behind a failing endpoint', () => {
  it('inserts a held delivery with no attempt due and no lease, even among leased ones', async () => {
    const failing = await anEndpoint(new Date());
    const healthy = await anEndpoint(null);
    const inserted = await deliveries.insertMany(
      data,
      [await aPair(healthy, false), await aPair(failing, true)],
      {
        count: 2,
        ms: 60_000,
      },
    );

    expect(inserted.map((item) => [item.pair.endpointId, item.leased, item.due === null])).toEqual([
      [healthy, true, false],
      [failing, false, true],
    ]);
    expect(inserted[1].delivery).toMatchObject({ status: 'pending', nextAttemptAt: null, leaseUntil: null });
    const due = await deliveries.dueWithoutLease(data, 1000);
    expect(due.map((run) => run.deliveryId)).not.toContain(inserted[1].delivery.deliveryId);
  });

  it("releases every held delivery of an endpoint once it answers, and no other endpoint's", async () => {
    const recovered = await anEndpoint(new Date());
    const stillFailing = await anEndpoint(new Date());
    const first = await aDelivery(recovered, true);
    const second = await aDelivery(recovered, true);
    const other = await aDelivery(stillFailing, true);

    const released = await deliveries.releaseHeld(data, recovered);

    expect(released.map((run) => [run.deliveryId, run.attempt]).sort()).toEqual(
      [
        [first.delivery.deliveryId, 1],
        [second.delivery.deliveryId, 1],
      ].sort(),
    );
    expect(await nextAttemptAt(other.delivery.deliveryId)).toBeNull();
    expect(await deliveries.releaseHeld(data, recovered)).toEqual([]);
  });

  it('leaves held deliveries alone while a delivery of the endpoint is still scheduled (its probe)', async () => {
    const endpoint = await anEndpoint(new Date());
    await aDelivery(endpoint, false);
    const held = await aDelivery(endpoint, true);

    await deliveries.releaseStranded(data);

    expect(await nextAttemptAt(held.delivery.deliveryId)).toBeNull();
  });

  it('makes the oldest held delivery the next probe once no delivery of a failing endpoint is scheduled', async () => {
    const endpoint = await anEndpoint(new Date());
    const probe = await aDelivery(endpoint, false);
    const oldest = await aDelivery(endpoint, true);
    const younger = await aDelivery(endpoint, true);
    await spend(probe.delivery.deliveryId);

    await deliveries.releaseStranded(data);
    expect(await nextAttemptAt(oldest.delivery.deliveryId)).not.toBeNull();
    expect(await nextAttemptAt(younger.delivery.deliveryId)).toBeNull();

    // The new probe is scheduled: the next pass leaves the younger one held.
    await deliveries.releaseStranded(data);
    expect(await nextAttemptAt(younger.delivery.deliveryId)).toBeNull();
  });

  it('releases every held delivery of an endpoint whose streak ended without releasing them', async () => {
    const endpoint = await anEndpoint(new Date());
    await aDelivery(endpoint, false);
    const held = [await aDelivery(endpoint, true), await aDelivery(endpoint, true)];
    // The success that ended the streak committed; its process died before releasing.
    await data.query('UPDATE webhook_endpoints SET failing_since = NULL WHERE endpoint_id = $1', [endpoint]);

    await deliveries.releaseStranded(data);

    for (const item of held) expect(await nextAttemptAt(item.delivery.deliveryId)).not.toBeNull();
  });

  it.each(['DELETED', 'DISABLED'] as const)(
    'releases every held delivery of a failing endpoint %s after an intake read it enabled',
    async (status) => {
      // The intake read the endpoint enabled and failing; the delete (or disable) settled the endpoint's
      // pending deliveries and committed before the intake's held ones did.
      const endpoint = await anEndpoint(new Date());
      const held = [
        await aDelivery(endpoint, true),
        await aDelivery(endpoint, true),
        await aDelivery(endpoint, true),
      ];
      await setStatus(endpoint, status);

      await deliveries.releaseStranded(data);

      // All at once, for their claims to settle them, not one probe a pass.
      for (const item of held) expect(await nextAttemptAt(item.delivery.deliveryId)).not.toBeNull();
    },
  );

  it('releases the held deliveries of every endpoint holding any in one pass, one delivery each', async () => {
    // Ids in a known order (the pass walks the endpoints holding deliveries in id order): first, middle, last.
    const prefix = `whep_${randomUUID()}`;
    const endpoints = [
      await anEndpoint(null, `${prefix}_a`),
      await anEndpoint(null, `${prefix}_b`),
      await anEndpoint(null, `${prefix}_c`),
    ];
    const held = [];
    for (const endpoint of endpoints) held.push(await aDelivery(endpoint, true));

    await deliveries.releaseStranded(data);

    for (const item of held) expect(await nextAttemptAt(item.delivery.deliveryId)).not.toBeNull();
  });

  it("makes one probe of an intake's held deliveries, which share their created_at", async () => {
    const endpoint = await anEndpoint(new Date());
    const pairs = [];
    for (let n = 0; n < 5; n += 1) pairs.push(await aPair(endpoint, true));
    const held = await deliveries.insertMany(data, pairs);
    const dueCount = async () => {
      let due = 0;
      for (const item of held) if ((await nextAttemptAt(item.delivery.deliveryId)) !== null) due += 1;
      return due;
    };

    expect(await deliveries.releaseStranded(data)).toBeGreaterThanOrEqual(1);
    expect(await dueCount()).toBe(1);
    // The probe is now a newer row version, behind its siblings in the index: the next pass must still see it.
    await deliveries.releaseStranded(data);
    expect(await dueCount()).toBe(1);
  });

  it('makes the oldest held delivery a probe when the only delivery scheduled is younger than it', async () => {
    const endpoint = await anEndpoint(new Date());
    const oldest = await aDelivery(endpoint, true);
    const younger = await aDelivery(endpoint, true);
    // A merchant's retry of a delivery made after the held ones: scheduled, but behind them.
    const retried = await aDelivery(endpoint, false);
    await data.query(
      `UPDATE webhook_deliveries SET created_at = now() + interval '1 minute' WHERE delivery_id = $1`,
      [retried.delivery.deliveryId],
    );

    await deliveries.releaseStranded(data);
    expect(await nextAttemptAt(oldest.delivery.deliveryId)).not.toBeNull();
    expect(await nextAttemptAt(younger.delivery.deliveryId)).toBeNull();

    // The new probe is ahead of the rest: the next pass leaves them held.
    await deliveries.releaseStranded(data);
    expect(await nextAttemptAt(younger.delivery.deliveryId)).toBeNull();
  });

  it('decides each endpoint on its own in one pass: recovered, failing without a probe, failing with one', async () => {
    const recovered = await anEndpoint(null);
    const withoutProbe = await anEndpoint(new Date());
    const withProbe = await anEndpoint(new Date());
    // Held while their endpoints failed; `recovered`'s streak has ended since.
    const recoveredHeld = [await aDelivery(recovered, true), await aDelivery(recovered, true)];
    const spentProbe = await aDelivery(withoutProbe, false);
    const [oldest, younger] = [await aDelivery(withoutProbe, true), await aDelivery(withoutProbe, true)];
    await spend(spentProbe.delivery.deliveryId);
    await aDelivery(withProbe, false);
    const waiting = await aDelivery(withProbe, true);

    const released = await deliveries.releaseStranded(data);

    for (const item of [...recoveredHeld, oldest])
      expect(await nextAttemptAt(item.delivery.deliveryId)).not.toBeNull();
    for (const item of [younger, waiting]) expect(await nextAttemptAt(item.delivery.deliveryId)).toBeNull();
    // Earlier tests' endpoints share the database, so at least these three; a second pass keeps `younger` held.
    expect(released).toBeGreaterThanOrEqual(3);
    await deliveries.releaseStranded(data);
    expect(await nextAttemptAt(younger.delivery.deliveryId)).toBeNull();
  });
});
