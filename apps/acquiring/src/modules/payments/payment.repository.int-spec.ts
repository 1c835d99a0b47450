import { DataSource } from 'typeorm';
import { newId } from '@paygrid/ids';
import { actorOf, waitFor } from '@paygrid/testing';
import { AcquiringService, startAcquiring } from '../../test/acquiring-service';
import { PaymentRepository } from './payment.repository';
import { StoredCard } from './payment.types';

/**
 * transitionLatestAttempt: the intent's lock, the latest-attempt check and the attempt's conditional
 * update in one statement (a processor answer's first write). What it must keep from the three separate
 * statements it replaces: it refuses (undefined, nothing written) an attempt that is not the latest or
 * whose status the event does not allow, and a call that waited for the intent's lock judges the
 * attempt as the lock holder left it, not as it was when the statement started.
 */
describe('payment attempt moved under its intent lock in one statement', () => {
  let service: AcquiringService;
  let payments: PaymentRepository;
  const actor = actorOf();

  beforeAll(async () => {
    service = await startAcquiring();
    payments = service.app.get(PaymentRepository);
  }, 120_000);

  afterAll(() => service?.close());

  /** An intent with its INITIATED first attempt, as a card create's first transaction leaves it. */
  async function initiated(): Promise<{ intentId: string; attemptId: string }> {
    const intentId = newId('pi');
    const attemptId = newId('att');
    await payments.insertIntent(
      service.dataSource,
      {
        id: intentId,
        accountId: actor.account_id,
        masterAccountId: actor.master_account_id,
        createCommandId: null,
        amountMinor: 1050n,
        currency: 'USD',
        status: 'PENDING',
        description: '',
        merchantOrderId: 'order-1',
        returnUrl: '',
        metadata: {},
        paymentOrders: null,
        customerId: null,
        clientSecret: `${intentId}_secret`,
        clientSecretExpiresAt: new Date(Date.now() + 60_000),
        ipAddress: null,
        browserInfo: null,
        latestAttemptId: attemptId,
      },
      {
        id: attemptId,
        commandId: null,
        autoCapture: true,
        card: { last4: '4242' } as unknown as StoredCard,
        savedCardId: null,
        threeDsAction: null,
        processor: 'sandbox',
      },
    );
    return { intentId, attemptId };
  }

  const statusOf = async (attemptId: string) =>
    (await payments.findAttempt(service.dataSource, attemptId))?.status;
  const fail = { failure_code: 'do_not_honor', completed_at: new Date() };

  it('moves the latest attempt and returns the intent it locked', async () => {
    const { intentId, attemptId } = await initiated();
    const moved = await payments.transitionLatestAttempt(
      service.dataSource,
      intentId,
      attemptId,
      'FAIL',
      fail,
    );
    expect(moved?.intent.id).toBe(intentId);
    expect(moved?.attempt).toMatchObject({ id: attemptId, status: 'FAILED', failureCode: 'do_not_honor' });
  });

  it('refuses, writing nothing, a status the event does not allow or an attempt that is not the latest', async () => {
    const first = await initiated();
    const other = await initiated();
    await payments.transitionLatestAttempt(service.dataSource, first.intentId, first.attemptId, 'FAIL', fail);
    expect(
      await payments.transitionLatestAttempt(
        service.dataSource,
        first.intentId,
        first.attemptId,
        'AWAIT_PROCESSOR',
        {},
      ),
    ).toBeUndefined();
    expect(await statusOf(first.attemptId)).toBe('FAILED');
    expect(
      await payments.transitionLatestAttempt(
        service.dataSource,
        first.intentId,
        other.attemptId,
        'FAIL',
        fail,
      ),
    ).toBeUndefined();
    expect(await statusOf(other.attemptId)).toBe('INITIATED');
  });

  /** Holds the intent's lock while `change` runs in its transaction; the one-statement move waits for it. */
  async function afterLockHolder(
    intentId: string,
    change: (holder: DataSource['manager']) => Promise<unknown>,
    move: (waiter: DataSource['manager']) => Promise<unknown>,
  ): Promise<unknown> {
    const holder = service.dataSource.createQueryRunner();
    const waiter = service.dataSource.createQueryRunner();
    try {
      await holder.startTransaction();
      await payments.lockIntent(holder.manager, intentId);
      await change(holder.manager);
      await waiter.startTransaction();
      const [{ pid }] = await waiter.query('SELECT pg_backend_pid() AS pid');
      const waiting = move(waiter.manager);
      await waitFor(async () => ((await lockWaiting(service.dataSource, pid)) ? true : undefined), {
        what: 'the one-statement move to wait on the intent lock',
      });
      await holder.commitTransaction();
      const moved = await waiting;
      await waiter.commitTransaction();
      return moved;
    } finally {
      await holder.release();
      await waiter.release();
    }
  }

  it('judges the attempt as the intent lock holder left it, after waiting for that lock', async () => {
    const { intentId, attemptId } = await initiated();
    const moved = await afterLockHolder(
      intentId,
      (holder) => payments.transitionAttempt(holder, attemptId, 'FAIL', fail),
      (waiter) => payments.transitionLatestAttempt(waiter, intentId, attemptId, 'AWAIT_PROCESSOR', {}),
    );
    expect(moved).toBeUndefined();
    expect(await statusOf(attemptId)).toBe('FAILED');
  });

  // The attempt row itself is untouched here: only the intent's lock can make the move wait and see it.
  it('refuses an attempt that a newer one replaced while it waited for the intent lock', async () => {
    const { intentId, attemptId } = await initiated();
    const newer = await initiated();
    const moved = await afterLockHolder(
      intentId,
      (holder) =>
        holder.query('UPDATE payment_intents SET latest_attempt_id = $2 WHERE payment_intent_id = $1', [
          intentId,
          newer.attemptId,
        ]),
      (waiter) => payments.transitionLatestAttempt(waiter, intentId, attemptId, 'FAIL', fail),
    );
    expect(moved).toBeUndefined();
    expect(await statusOf(attemptId)).toBe('INITIATED');
  });
});

async function lockWaiting(dataSource: DataSource, pid: number): Promise<boolean> {
  const [row] = await dataSource.query(`SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1`, [pid]);
  return row?.wait_event_type === 'Lock';
}
