import { randomUUID } from 'node:crypto';
import { PayoutCommand, SANDBOX_SEED_DEFAULTS } from '@paygrid/contracts';
import { actorOf, resultOf, waitFor } from '@paygrid/testing';
import { acquiringEvents, execute, PayoutsService, publish, startPayouts, TEST_RAIL_ENV } from './test/payouts-service';

/**
 * The bank rail's timers live in Postgres: payouts created by a service that stops before their next
 * step reach a final status under the next instance, each step taken (and announced) once.
 */
describe('payout rail across a restart', () => {
  let service: PayoutsService | undefined;

  afterAll(async () => {
    await service?.close();
  });

  it('finishes every payout the stopped instance left in flight', async () => {
    // An instance whose rail never gets to run: it records payouts and their due times, then stops.
    const first = await startPayouts({ env: { PAYOUT_RAIL_POLL_MS: '60000', PAYOUT_PROCESSING_DELAY_MS: '100' } });
    service = first;
    // The seeded master has a USD settlement account from the sandbox seed.
    const accountId = SANDBOX_SEED_DEFAULTS.master.accountId;
    const attemptId = `att_${randomUUID()}`;
    await publish(first, 'acquiring', [acquiringEvents.captured(accountId, attemptId, '100.00'), acquiringEvents.settled(accountId, attemptId, 10_000n)]);
        await waitFor(async () => {
      const balance = resultOf(await execute(first, PayoutCommand.retrieveBalance, { currency: 'USD' }, actorOf(accountId)));
      return balance.available_balance === '100.00';
    }, { what: 'the funds' });
    const amounts = ['10.00', '10.13', '5.00', '7.13', '1.00'];
    const ids: string[] = [];
    for (const amount of amounts) {
      const payout = resultOf(
        await execute(first, PayoutCommand.createPayout, { payout_currency: 'USD', payout_amount: amount, statement_descriptor: 'RESTART' }, actorOf(accountId)),
      );
      ids.push(payout.payout_id);
    }
    await first.stopApp();

    // The same database and stack; the rail now runs.
    await first.startApp({ PAYOUT_RAIL_POLL_MS: TEST_RAIL_ENV.PAYOUT_RAIL_POLL_MS });
    const second = first;
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
    const balance = resultOf(await execute(second, PayoutCommand.retrieveBalance, { currency: 'USD' }, actorOf(accountId)));
    expect(balance.available_balance).toBe('84.00');
    expect(resultOf(await execute(second, PayoutCommand.verifyLedger, {}, null)).discrepancies).toEqual([]);
  });
});

