import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { PayoutCommand, SANDBOX_SEED_DEFAULTS } from '@paygrid/contracts';
import { actorOf, resultOf, waitFor } from '@paygrid/testing';
import { PayoutRail } from './modules/payouts/payout-rail';
import { acquiringEvents, execute, PayoutsService, publish, startPayouts, TEST_RAIL_ENV } from './test/payouts-service';

/**
 * The bank rail's timers are durable jobs, recorded in Postgres with the payout: payouts created by a
 * service that stops before their first step reach a final status under the next instance, each step
 * taken (and announced) once, although the stop also emptied the service's Redis queue (the harness
 * deletes its keys, as a FLUSHALL would), so only Postgres still knows the steps are due.
 */
describe('payout rail across a restart', () => {
  let service: PayoutsService | undefined;

  afterAll(async () => {
    await service?.close();
  });

  const ids: string[] = [];
  const outboxCounts = async (running: PayoutsService): Promise<number[]> => {
    const rows: { n: number }[] = await running.dataSource.query(
      `SELECT count(*)::int AS n FROM outbox WHERE message_key = ANY($1) GROUP BY message_key`,
      [ids],
    );
    return rows.map((row) => row.n).sort();
  };

  it('finishes every payout the stopped instance left in flight', async () => {
    // An instance whose first steps fall due long after it stops: it records payouts and their jobs only.
    service = await startPayouts({ env: { PAYOUT_PROCESSING_DELAY_MS: '600000' } });
    const running = service;
    // The seeded master has a USD settlement account from the sandbox seed.
    const accountId = SANDBOX_SEED_DEFAULTS.master.accountId;
    const attemptId = `att_${randomUUID()}`;
    await publish(running, 'acquiring', [acquiringEvents.captured(accountId, attemptId, '100.00'), acquiringEvents.settled(accountId, attemptId, 10_000n)]);
    await waitFor(async () => {
      const balance = resultOf(await execute(running, PayoutCommand.retrieveBalance, { currency: 'USD' }, actorOf(accountId)));
      return balance.available_balance === '100.00';
    }, { what: 'the funds' });
    for (const amount of ['10.00', '10.13', '5.00', '7.13', '1.00']) {
      const payout = resultOf(
        await execute(running, PayoutCommand.createPayout, { payout_currency: 'USD', payout_amount: amount, statement_descriptor: 'RESTART' }, actorOf(accountId)),
      );
      ids.push(payout.payout_id);
    }
    await running.stopApp();

    // While it was down: each payout still INITIATED, its first step one pending job in Postgres. The
    // clock moves on (the steps fall due now) and the next instance runs at test speed.
    const database = new Client({ connectionString: running.database.url });
    await database.connect();
    try {
      const { rows: jobs } = await database.query<{ kind: string; status: string; attempts: number }>(
        `SELECT j.kind, j.status, j.attempts FROM durable_jobs j JOIN payouts p ON p.payout_id = j.subject_id
          WHERE p.payout_id = ANY($1) AND p.status = 'INITIATED'`,
        [ids],
      );
      expect(jobs).toEqual(Array(ids.length).fill({ kind: 'payout_process', status: 'pending', attempts: 0 }));
      await database.query(`UPDATE durable_jobs SET due_at = now() WHERE subject_id = ANY($1)`, [ids]);
    } finally {
      await database.end();
    }
    await running.startApp({ PAYOUT_PROCESSING_DELAY_MS: TEST_RAIL_ENV.PAYOUT_PROCESSING_DELAY_MS });

    const finals = await waitFor(async () => {
      const rows: { payout_id: string; status: string }[] = await running.dataSource.query(
        'SELECT payout_id, status FROM payouts WHERE payout_id = ANY($1) ORDER BY payout_id',
        [ids],
      );
      return rows.every((row) => ['COMPLETED', 'FAILED_REFUNDED'].includes(row.status)) ? rows : undefined;
    }, { timeoutMs: 30_000, what: 'every payout to reach a final status' });
    expect(finals.map((row) => row.status).sort()).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED', 'FAILED_REFUNDED', 'FAILED_REFUNDED']);
    expect(await outboxCounts(running)).toEqual([3, 3, 3, 4, 4]);
    const balance = resultOf(await execute(running, PayoutCommand.retrieveBalance, { currency: 'USD' }, actorOf(accountId)));
    expect(balance.available_balance).toBe('84.00');
    expect(resultOf(await execute(running, PayoutCommand.verifyLedger, {}, null)).discrepancies).toEqual([]);
  });

  it('does nothing when a step runs again after it was taken', async () => {
    const running = service as PayoutsService;
    const rail = running.app.get(PayoutRail);
    const entries = async (): Promise<number> =>
      (await running.dataSource.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE reference LIKE ANY($1)`, [ids.map((id) => `payout:${id}:%`)]))[0].n;
    const before = { entries: await entries(), outbox: await outboxCounts(running) };
    // What a worker killed after its commit, before the run was recorded done, leads to: the same run again.
    for (const id of ids) {
      await rail.advance(id, 'INITIATED');
      await rail.advance(id, 'PROCESSING');
      await rail.advance(id, 'FAILED');
    }
    expect({ entries: await entries(), outbox: await outboxCounts(running) }).toEqual(before);
    const statuses: { status: string }[] = await running.dataSource.query('SELECT status FROM payouts WHERE payout_id = ANY($1)', [ids]);
    expect(statuses.map((row) => row.status).sort()).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED', 'FAILED_REFUNDED', 'FAILED_REFUNDED']);
  });
});
