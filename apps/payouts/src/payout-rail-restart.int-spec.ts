import { randomUUID } from 'node:crypto';
import { PayoutCommand, SANDBOX_SEED_DEFAULTS } from '@paygrid/contracts';
import { actorOf, resultOf, TestDatabase, waitFor } from '@paygrid/testing';
import { acquiringEvents, createPayoutsDatabase, PayoutsApp, startPayoutsApp } from './test/payouts-app.harness';

/**
 * The bank rail's timers live in Postgres: payouts created by a service that stops before their next
 * step reach a final status under the next instance, each step taken (and announced) once.
 */
describe('payout rail across a restart', () => {
  let database: TestDatabase;
  let service: PayoutsApp | undefined;

  beforeAll(async () => {
    database = await createPayoutsDatabase();
  });

  afterAll(async () => {
    await service?.close();
    await database?.drop();
  });

  it('finishes every payout the stopped instance left in flight', async () => {
    // An instance whose rail never gets to run: it records payouts and their due times, then stops.
    service = await startPayoutsApp(database, { PAYOUT_RAIL_POLL_MS: '60000', PAYOUT_PROCESSING_DELAY_MS: '100' });
    // The seeded master has a USD settlement account from the sandbox seed.
    const accountId = SANDBOX_SEED_DEFAULTS.master.accountId;
    const attemptId = `att_${randomUUID()}`;
    await service.publishAcquiring([acquiringEvents.captured(accountId, attemptId, '100.00'), acquiringEvents.settled(accountId, attemptId, 10_000n)]);
    const first = service;
    await waitFor(async () => {
      const balance = resultOf(await first.bus.execute(PayoutCommand.retrieveBalance, { currency: 'USD' }, actorOf(accountId)));
      return balance.available_balance === '100.00';
    }, { what: 'the funds' });
    const amounts = ['10.00', '10.13', '5.00', '7.13', '1.00'];
    const ids: string[] = [];
    for (const amount of amounts) {
      const payout = resultOf(
        await first.bus.execute(PayoutCommand.createPayout, { payout_currency: 'USD', payout_amount: amount, statement_descriptor: 'RESTART' }, actorOf(accountId)),
      );
      ids.push(payout.payout_id);
    }
    await first.close();

    service = await startPayoutsApp(database);
    const second = service;
    const finals = await waitFor(async () => {
      const rows: { payout_id: string; status: string }[] = await second.dataSource.query(
        'SELECT payout_id, status FROM payouts WHERE payout_id = ANY($1) ORDER BY payout_id',
        [ids],
      );
      return rows.every((row) => ['COMPLETED', 'FAILED_REFUNDED'].includes(row.status)) ? rows : undefined;
    }, { timeoutMs: 30_000, what: 'every payout to reach a final status' });
    expect(finals.map((row) => row.status).sort()).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED', 'FAILED_REFUNDED', 'FAILED_REFUNDED']);
    const events: { n: number }[] = await second.dataSource.query(
      `SELECT count(*)::int AS n FROM outbox WHERE message_key = ANY($1) GROUP BY message_key`,
      [ids],
    );
    expect(events.map((row) => row.n).sort()).toEqual([3, 3, 3, 4, 4]);
    const balance = resultOf(await second.bus.execute(PayoutCommand.retrieveBalance, { currency: 'USD' }, actorOf(accountId)));
    expect(balance.available_balance).toBe('84.00');
    expect(resultOf(await second.bus.execute(PayoutCommand.verifyLedger, {}, null)).discrepancies).toEqual([]);
  });
});

