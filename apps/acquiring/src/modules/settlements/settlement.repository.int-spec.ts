import { DataSource } from 'typeorm';
import { PaymentIntentView } from '@paygrid/contracts';
import { newId } from '@paygrid/ids';
import { actorOf, resultOf, waitFor } from '@paygrid/testing';
import { SANDBOX_CARDS } from '../connectors/sandbox.connector';
import { AcquiringService, intentBody, sealedCard, startAcquiring } from '../../test/acquiring-service';
import { SettlementRepository } from './settlement.repository';

/**
 * The one-statement settlement insert (batch found or created in the same statement): one batch per
 * account, currency and day, one settlement per attempt, and a first settlement of the day that waited
 * on a concurrent one's new batch still lands in that batch.
 */
describe('settlement insert with its batch', () => {
  let service: AcquiringService;
  let repository: SettlementRepository;
  const actor = actorOf();

  beforeAll(async () => {
    service = await startAcquiring();
    repository = service.app.get(SettlementRepository);
  }, 120_000);

  afterAll(() => service?.close());

  /** A recorded attempt that will never settle by itself (declined), to settle by hand. */
  async function attempt(): Promise<{ intentId: string; attemptId: string }> {
    const body = intentBody({ payment_method: sealedCard(service.config, { card_number: SANDBOX_CARDS.insufficientFunds, cvc: '123' }) });
    const intent = resultOf(await service.mutate<PaymentIntentView>('acquiring.payment_intents.create', body, { actor }));
    return { intentId: intent.payment_intent_id, attemptId: intent.latest_payment_attempt?.attempt_id ?? '' };
  }

  const settlementOf = (ids: { intentId: string; attemptId: string }, settledAt: Date) => ({
    id: newId('stl'),
    ...ids,
    merchantOrderId: 'order-1',
    accountId: actor.account_id,
    masterAccountId: actor.master_account_id,
    currency: 'USD',
    amountMinor: 1050n,
    feeMinor: 0n,
    netMinor: 1050n,
    settledAt,
  });

  it('puts a day’s settlements in one batch and records an attempt’s settlement once', async () => {
    const day = new Date('2099-01-01T10:00:00Z');
    const [first, second] = [await attempt(), await attempt()];
    const a = await repository.insert(service.dataSource, settlementOf(first, day));
    const b = await repository.insert(service.dataSource, settlementOf(second, day));
    expect(a?.batchId).toBeDefined();
    expect(b?.batchId).toBe(a?.batchId);
    expect(await repository.insert(service.dataSource, settlementOf(first, day))).toBeUndefined();
    const [{ n }] = await service.dataSource.query('SELECT count(*)::int AS n FROM settlements WHERE payment_attempt_id = $1', [first.attemptId]);
    expect(n).toBe(1);
  });

  it('lands in the batch a concurrent first settlement of the day created while it waited', async () => {
    const day = new Date('2099-02-01T10:00:00Z');
    const [first, second] = [await attempt(), await attempt()];
    const holder = service.dataSource.createQueryRunner();
    const waiter = service.dataSource.createQueryRunner();
    try {
      await holder.startTransaction();
      const held = await repository.insert(holder.manager, settlementOf(first, day));
      await waiter.startTransaction();
      const [{ pid }] = await waiter.query('SELECT pg_backend_pid() AS pid');
      const waiting = repository.insert(waiter.manager, settlementOf(second, day));
      await waitFor(async () => ((await lockWaiting(service.dataSource, pid)) ? true : undefined), {
        what: 'the second insert to wait on the new batch',
      });
      await holder.commitTransaction();
      const landed = await waiting;
      await waiter.commitTransaction();
      expect(landed?.batchId).toBe(held?.batchId);
    } finally {
      await holder.release();
      await waiter.release();
    }
  });
});

async function lockWaiting(dataSource: DataSource, pid: number): Promise<boolean> {
  const [row] = await dataSource.query(`SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1`, [pid]);
  return row?.wait_event_type === 'Lock';
}
