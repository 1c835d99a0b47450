import { randomUUID } from 'node:crypto';
import { createDataSource, KAFKA, KafkaNames, LOGGER, Metrics } from '@paygrid/platform';
import { aDomainEvent, watchPgRoundTrips } from '@paygrid/testing';
import { verifyLedger } from '@paygrid/ledger';
import { acquiringEvents, PayoutsService, startPayouts } from '../../test/payouts-service';
import { AcquiringEventsListener } from './acquiring-events.listener';
import { AcquiringPostings } from './acquiring-postings.service';
import { MerchantLedger } from './merchant-ledger';

/**
 * The acquiring intake's chunks on the real Postgres, given to the listener exactly as its batch subscriber
 * gives them (so a chunk's content is the test's, not the broker's batching): each event of a chunk applied
 * once whatever its repeats, a settlement splitting on the capture before it in the same chunk, an unreadable
 * event skipped without blocking the rest, and chunks of the same merchants in opposite orders applied side by
 * side without a deadlock.
 */
describe('acquiring intake, a chunk per transaction', () => {
  let service: PayoutsService;
  let intake: AcquiringEventsListener;
  let ledger: MerchantLedger;

  beforeAll(async () => {
    service = await startPayouts();
    intake = service.app.get(AcquiringEventsListener);
    ledger = service.app.get(MerchantLedger);
  }, 120_000);

  afterAll(async () => {
    await service?.close();
  });

  afterEach(async () => {
    expect(await verifyLedger(service.dataSource.manager)).toEqual([]);
  });

  async function funds(merchantId: string): Promise<Record<string, bigint>> {
    const balances = await ledger.balances(service.dataSource.manager, merchantId, 'USD');
    return Object.fromEntries(balances.map((balance) => [balance.bucket, balance.balanceMinor]));
  }

  it('applies a capture and its settlement in one chunk, once each whatever the repeats, skipping what it cannot read', async () => {
    const merchant = randomUUID();
    const attempt = `att_${randomUUID()}`;
    const captured = acquiringEvents.captured(merchant, attempt, '40.00');
    const settled = acquiringEvents.settled(merchant, attempt, 4000n);
    const unreadable = { ...acquiringEvents.captured(merchant, `att_${randomUUID()}`, '1.00'), data: { currency: 'USD' } };
    const noMoney = aDomainEvent({ account_id: merchant, event_name: 'acquiring.payment_intent.created' });

    const outcomes = await intake.applyAll([captured, noMoney, settled, captured, unreadable]);

    expect(outcomes).toEqual(['applied', 'duplicate', 'applied', 'duplicate', 'duplicate']);
    expect(await funds(merchant)).toEqual({ available: 4000n, pending: 0n, card_network: 0n, settlement_bank: -4000n });
    expect(await intake.applyAll([settled, captured])).toEqual(['duplicate', 'duplicate']);
    expect(await funds(merchant)).toEqual({ available: 4000n, pending: 0n, card_network: 0n, settlement_bank: -4000n });
  });

  it('applies a settlement whose capture is already stored, and a capture a settlement already implied', async () => {
    const merchant = randomUUID();
    const [first, second] = [`att_${randomUUID()}`, `att_${randomUUID()}`];
    await intake.applyAll([acquiringEvents.captured(merchant, first, '10.00'), acquiringEvents.settled(merchant, second, 500n)]);

    expect(await intake.applyAll([acquiringEvents.settled(merchant, first, 1000n), acquiringEvents.captured(merchant, second, '5.00')])).toEqual([
      'applied',
      'applied',
    ]);
    expect(await funds(merchant)).toEqual({ available: 1500n, pending: 0n, card_network: 0n, settlement_bank: -1500n });
  });

  it('reserves, pays and returns refunds of one chunk on the funds the chunk itself moved', async () => {
    const merchant = randomUUID();
    const attempt = `att_${randomUUID()}`;
    await intake.applyAll([
      acquiringEvents.captured(merchant, attempt, '30.00'),
      acquiringEvents.settled(merchant, attempt, 3000n),
      acquiringEvents.refund('created', merchant, `re_${attempt}_1`, 2000n),
      acquiringEvents.refund('succeeded', merchant, `re_${attempt}_1`, 2000n),
      acquiringEvents.refund('failed', merchant, `re_${attempt}_2`, 500n),
      acquiringEvents.refund('created', merchant, `re_${attempt}_3`, 4000n),
    ]);

    // 30 settled; re_1 pays 20 out; re_2 is reserved then returned; re_3 takes the last 10 and the platform
    // advances 30.
    expect(await funds(merchant)).toEqual(
      expect.objectContaining({ available: 0n, pending: 0n, refund_reserved: 4000n, refund_advance: -3000n, settlement_bank: -1000n }),
    );
  });

  it('applies chunks of the same new merchants in opposite orders side by side, each effect once', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const [attemptA, attemptB] = [`att_${randomUUID()}`, `att_${randomUUID()}`];
    const captures = [acquiringEvents.captured(a, attemptA, '2.00'), acquiringEvents.captured(b, attemptB, '3.00')];
    const settlements = [acquiringEvents.settled(b, attemptB, 300n), acquiringEvents.settled(a, attemptA, 200n)];

    await Promise.all([intake.applyAll(captures), intake.applyAll(settlements), intake.applyAll([...captures].reverse())]);

    expect(await funds(a)).toEqual({ available: 200n, pending: 0n, card_network: 0n, settlement_bank: -200n });
    expect(await funds(b)).toEqual({ available: 300n, pending: 0n, card_network: 0n, settlement_bank: -300n });
  });

  it('runs the chunk statements on their generic plans, never re-planned per execution', async () => {
    // One connection, so pg_prepared_statements (per session) shows every statement the listener prepared.
    const single = createDataSource({ url: service.database.url, app: 'payouts-plans', poolSize: 1 });
    await single.initialize();
    try {
      const { app } = service;
      const onOneConnection = new AcquiringEventsListener(
        single,
        app.get(AcquiringPostings),
        app.get(KAFKA),
        app.get(LOGGER),
        app.get(Metrics),
        app.get(KafkaNames),
      );
      const merchant = randomUUID();
      // More than the five executions the plan cache plans afresh before it considers the generic plan.
      for (let chunk = 0; chunk < 7; chunk += 1) {
        const attempt = `att_${randomUUID()}`;
        await onOneConnection.applyAll([
          acquiringEvents.captured(merchant, attempt, '1.00'),
          acquiringEvents.settled(merchant, attempt, 100n),
        ]);
      }
      const plans: { statement: string; generic_plans: string; custom_plans: string }[] = await single.query(
        `SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements
          WHERE statement LIKE '%INSERT INTO inbox%' OR statement LIKE '%INSERT INTO ledger_entries%'`,
      );
      expect(plans.map((plan) => ({ generic: Number(plan.generic_plans), custom: Number(plan.custom_plans) }))).toEqual([
        { generic: 7, custom: 0 },
        { generic: 7, custom: 0 },
      ]);
      expect(await funds(merchant)).toEqual({ available: 700n, pending: 0n, card_network: 0n, settlement_bank: -700n });

      // The setting rides on the BEGIN: a chunk of a capture and its settlement is five statements. The
      // service's own pollers (jobs, relay) query meanwhile on its other connections: the chunk's
      // transaction is the one that sets the plan mode.
      const driver = watchPgRoundTrips();
      try {
        const attempt = `att_${randomUUID()}`;
        await onOneConnection.applyAll([
          acquiringEvents.captured(merchant, attempt, '1.00'),
          acquiringEvents.settled(merchant, attempt, 100n),
        ]);
      } finally {
        driver.restore();
      }
      const chunk = driver.transactions().find((transaction) => transaction.statements[0].includes('plan_cache_mode'));
      const sent = chunk?.statements ?? [];
      expect(sent[0]).toBe('START TRANSACTION; SET LOCAL plan_cache_mode = force_generic_plan');
      expect(sent.slice(1, -1).some((text) => text.includes('plan_cache_mode'))).toBe(false);
      expect(sent[sent.length - 1]).toBe('COMMIT');
      expect(sent).toHaveLength(5);
      expect(await funds(merchant)).toEqual({ available: 800n, pending: 0n, card_network: 0n, settlement_bank: -800n });
    } finally {
      await single.destroy();
    }
  });
});
