import { Logger } from 'pino';
import { AcquiringEvents, EventTopics } from '@paygrid/contracts';
import { newId } from '@paygrid/ids';
import { actorOf, watchPgRoundTrips } from '@paygrid/testing';
import {
  appendToOutbox,
  Executor,
  OneStatement,
  runAsOneStatement,
  runInTransaction,
} from '@paygrid/platform';
import { AcquiringService, startAcquiring } from '../../test/acquiring-service';
import { ApprovedAuthorization, CARD_CONNECTOR, CardConnector } from '../connectors/connector';
import { Authorization, Completion } from './authorization';
import { PaymentFlow } from './payment-flow';
import { PaymentPresenter } from './payment.presenter';
import { SettlementService } from '../settlements/settlement.service';
import { PaymentRepository, plannedIntentUpdate, toIntent } from './payment.repository';
import { PaymentAttempt, PaymentIntent, StoredCard } from './payment.types';

/**
 * A card create's first record as one statement (PaymentFlow.createIntentAlone): the intent, its first
 * attempt and their two created events are written together, and the events, built before the insert
 * from the rows as planned, are exactly what they would be if built from the rows as stored, byte for
 * byte: jsonb keeps an object's keys in its own order, which the plan follows (jsonbOrder).
 *
 * Its second record, the processor's answer (PaymentFlow.applyAuthorization), plans the intent's update
 * the same way and sends it without waiting (plannedIntentUpdate): two round trips, and an update whose
 * row was not as planned fails the transaction in Postgres. Applied to the rows as record 1 wrote them
 * (`asRecorded`), the attempt's move is planned too: one round trip, and when those rows changed
 * meanwhile, the answer is applied again under the lock (Authorization.apply). Its settlement plans the
 * attempt's move (plannedAttemptTransition): three round trips.
 */
describe("a card create's records: the first in one statement, the later ones' known rows planned", () => {
  let service: AcquiringService;
  let flow: PaymentFlow;
  let payments: PaymentRepository;
  let presenter: PaymentPresenter;
  let settlements: SettlementService;
  const actor = actorOf();

  beforeAll(async () => {
    // Settlements far off: the settle job never runs by itself here, the test runs it.
    service = await startAcquiring({ env: { SETTLEMENT_DELAY_MS: '600000' } });
    settlements = service.app.get(SettlementService);
    flow = service.app.get(PaymentFlow);
    payments = service.app.get(PaymentRepository);
    presenter = service.app.get(PaymentPresenter);
  }, 120_000);

  afterAll(() => service?.close());

  const logger = { warn: () => undefined, error: () => undefined } as unknown as Logger;

  const statement = (build: (events: Executor) => Promise<OneStatement>) =>
    runAsOneStatement(service.dataSource, build);

  function newIntent(commandId: string) {
    const id = newId('pi');
    return {
      id,
      accountId: actor.account_id,
      masterAccountId: actor.master_account_id,
      createCommandId: commandId,
      amountMinor: 1234n,
      currency: 'USD',
      description: 'one statement',
      merchantOrderId: `order-${commandId}`,
      returnUrl: 'https://shop.example/return',
      // Keys neither sorted nor in jsonb's order (shortest first, then bytewise), one of them a number.
      metadata: { zeta: 'last', a: 'first', mid: 'middle', '10': 'ten', éa: 'accented', ab: 'second' },
      paymentOrders: null,
      customerId: null,
      clientSecret: `${id}_secret_test`,
      clientSecretExpiresAt: new Date(Date.now() + 60_000),
      ipAddress: '203.0.113.7',
      browserInfo: { user_agent: 'jest', accept_header: 'text/html', language: 'en', java_enabled: false },
    };
  }

  const card = {
    last4: '4242',
    brand: 'visa',
    expiry_year: '2030',
    card_number: '424242******4242',
    expiry_month: '12',
  } as unknown as StoredCard;
  const first = (commandId: string) => ({
    commandId,
    card,
    savedCardId: null,
    autoCapture: true,
    threeDsAction: null,
    processor: 'sandbox',
  });

  /** The events of these aggregates, in the order they were written. */
  const storedEvents = async (sourceIds: string[]) =>
    (
      (await service.dataSource.query('SELECT payload FROM outbox WHERE message_key = ANY($1) ORDER BY id', [
        sourceIds,
      ])) as { payload: string }[]
    ).map((row) => JSON.parse(row.payload) as { event_name: string; data: unknown });

  it('writes the intent, its attempt and their events, which read as the stored rows do', async () => {
    const commandId = `cmd_${newId('pi')}`;
    const recorded = await flow.createIntentAlone(statement, newIntent(commandId), first(commandId));
    expect(recorded?.intent.status).toBe('PENDING');
    const attemptId = recorded?.attempt?.id ?? '';

    const [row] = await service.dataSource.query(
      'SELECT * FROM payment_intents WHERE payment_intent_id = $1',
      [recorded?.intent.id],
    );
    const stored = toIntent(row);
    const storedAttempt = await payments.findAttempt(service.dataSource, attemptId);
    if (!storedAttempt) throw new Error('the attempt was not written');
    expect(recorded?.intent).toEqual(stored);
    expect(recorded?.attempt).toEqual(storedAttempt);

    const events = await storedEvents([stored.id, attemptId]);
    expect(events.map((event) => event.event_name)).toEqual([
      AcquiringEvents.intentCreated,
      AcquiringEvents.attemptCreated,
    ]);
    const asCreated = { ...stored, status: 'REQUIRES_PAYMENT_METHOD' as const, latestAttemptId: null };
    expect(JSON.stringify(events[0].data)).toBe(
      JSON.stringify(presenter.intentForEvent(asCreated, null, null)),
    );
    expect(JSON.stringify(events[1].data)).toBe(JSON.stringify(presenter.attempt(storedAttempt)));
  });

  it('writes nothing on a repeat of the creating command, so the caller takes the path that finds it', async () => {
    const commandId = `cmd_${newId('pi')}`;
    const original = newIntent(commandId);
    const repeat = newIntent(commandId);
    expect(await flow.createIntentAlone(statement, original, first(commandId))).toBeDefined();
    expect(await flow.createIntentAlone(statement, repeat, first(commandId))).toBeUndefined();
    const [counts] = await service.dataSource.query(
      `SELECT (SELECT count(*)::int FROM payment_intents WHERE create_command_id = $1) AS intents,
              (SELECT count(*)::int FROM payment_attempts WHERE command_id = $1) AS attempts,
              (SELECT count(*)::int FROM outbox WHERE payload::jsonb->'data'->>'payment_intent_id' = $2) AS original_events,
              (SELECT count(*)::int FROM outbox WHERE payload::jsonb->'data'->>'payment_intent_id' = $3) AS repeat_events`,
      [commandId, original.id, repeat.id],
    );
    expect(counts).toEqual({ intents: 1, attempts: 1, original_events: 2, repeat_events: 0 });
  });
  const captured: ApprovedAuthorization = {
    kind: 'approved',
    captured: true,
    processorReference: 'psp_planned',
    authCode: '123456',
    rrn: '000000000001',
    authenticationData: {} as ApprovedAuthorization['authenticationData'],
  };

  it('applies a captured answer in two round trips, its intent as planned reading as stored, and so its event', async () => {
    const commandId = `cmd_${newId('pi')}`;
    const recorded = await flow.createIntentAlone(statement, newIntent(commandId), first(commandId));
    if (!recorded) throw new Error('the intent was not recorded');
    const wire = watchPgRoundTrips();
    let applied;
    try {
      applied = await runInTransaction(service.dataSource, logger, (tx) =>
        flow.applyAuthorization(tx, recorded, captured, null),
      );
    } finally {
      wire.restore();
    }
    const transaction = wire.transactions().find(({ texts }) => texts[1] === 'WITH i');
    expect(transaction?.texts).toContain('WITH touched');
    expect(transaction?.roundTrips).toBe(2);

    const [row] = await service.dataSource.query(
      'SELECT * FROM payment_intents WHERE payment_intent_id = $1',
      [recorded.intent.id],
    );
    const stored = toIntent(row);
    expect(stored.status).toBe('SUCCEEDED');
    expect(applied.intent).toEqual(stored);
    const storedAttempt = await payments.findAttempt(service.dataSource, recorded.attempt?.id ?? '');
    const events = await storedEvents([stored.id]);
    expect(events.map((event) => event.event_name)).toEqual([
      AcquiringEvents.intentCreated,
      AcquiringEvents.intentSucceeded,
    ]);
    expect(JSON.stringify(events[1].data)).toBe(
      JSON.stringify(presenter.intentForEvent(stored, storedAttempt ?? null, null)),
    );
  });

  it('applies a captured answer to the rows as recorded in one round trip, which read as stored', async () => {
    const commandId = `cmd_${newId('pi')}`;
    const recorded = await flow.createIntentAlone(statement, newIntent(commandId), first(commandId));
    if (!recorded) throw new Error('the intent was not recorded');
    const answer = { ...captured, authenticationData: { cvv_result: 'M', three_ds: null, avs_result: 'Y' } } as ApprovedAuthorization;
    const wire = watchPgRoundTrips();
    let applied;
    try {
      applied = await runInTransaction(service.dataSource, logger, (tx) =>
        flow.applyAuthorization(tx, recorded, answer, null, true),
      );
    } finally {
      wire.restore();
    }
    const transaction = wire.transactions().find(({ texts }) => texts.includes('COMMIT'));
    // BEGIN, the attempt's move (the intent locked by it), the job's record, the intent's update, the
    // events, COMMIT: all written before the first answer is read.
    expect(transaction?.texts[0]).toBe('START TRANSACTION');
    expect(transaction?.roundTrips).toBe(1);

    const stored = await payments.findIntent(service.dataSource, recorded.intent.id);
    const storedAttempt = await payments.findAttempt(service.dataSource, recorded.attempt?.id ?? '');
    expect(stored?.status).toBe('SUCCEEDED');
    expect(storedAttempt?.status).toBe('CAPTURE_REQUESTED');
    expect(applied.intent).toEqual(stored);
    expect(applied.attempt).toEqual(storedAttempt);
    const events = await storedEvents([recorded.intent.id, recorded.attempt?.id ?? '']);
    expect(JSON.stringify(events.at(-1)?.data)).toBe(
      JSON.stringify(presenter.intentForEvent(stored as PaymentIntent, storedAttempt ?? null, null)),
    );
    expect(JSON.stringify(events.at(-2)?.data)).toBe(JSON.stringify(presenter.attempt(storedAttempt as PaymentAttempt)));
  });

  describe('an answer planned from the rows as recorded, when they changed before it was applied', () => {
    const complete: Completion = async (work) => ({ result: await runInTransaction(service.dataSource, logger, work), applied: true });
    let voids: jest.SpyInstance;
    beforeEach(() => {
      voids = jest.spyOn(service.app.get<CardConnector>(CARD_CONNECTOR), 'void');
    });
    afterEach(() => voids.mockRestore());

    it('applies it again under the lock, over the intent as it now is, and voids nothing', async () => {
      const commandId = `cmd_${newId('pi')}`;
      const recorded = await flow.createIntentAlone(statement, newIntent(commandId), first(commandId));
      if (!recorded) throw new Error('the intent was not recorded');
      // A write to the intent after record 1 (as a concurrent run of the same command could make).
      await service.dataSource.query(
        `UPDATE payment_intents SET description = 'changed since', updated_at = now() WHERE payment_intent_id = $1`,
        [recorded.intent.id],
      );
      const view = await service.app.get(Authorization).apply(complete, recorded, captured, null, true);
      expect(view).toMatchObject({ intent_status: 'SUCCEEDED', description: 'changed since' });
      expect(voids).not.toHaveBeenCalled();
      const events = await storedEvents([recorded.intent.id]);
      // The planned transaction wrote nothing: one succeeded event, from the second try.
      expect(events.map((event) => event.event_name)).toEqual([AcquiringEvents.intentCreated, AcquiringEvents.intentSucceeded]);
      expect(events[1].data).toMatchObject({ description: 'changed since' });
    });

    it("refuses it, once, when the attempt moved on, and voids the processor's authorisation once", async () => {
      const commandId = `cmd_${newId('pi')}`;
      const recorded = await flow.createIntentAlone(statement, newIntent(commandId), first(commandId));
      if (!recorded?.attempt) throw new Error('the intent was not recorded');
      await service.dataSource.query(`UPDATE payment_attempts SET attempt_status = 'FAILED' WHERE attempt_id = $1`, [
        recorded.attempt.id,
      ]);
      // The careful try's refusal, which names the attempt's status (the command pipeline maps it to a 409).
      await expect(service.app.get(Authorization).apply(complete, recorded, captured, null, true)).rejects.toMatchObject({
        name: 'TransitionRefusedError',
        currentStatus: 'FAILED',
      });
      expect(voids).toHaveBeenCalledTimes(1);
      expect((await payments.findIntent(service.dataSource, recorded.intent.id))?.status).toBe('PENDING');
      expect((await storedEvents([recorded.intent.id])).map((event) => event.event_name)).toEqual([AcquiringEvents.intentCreated]);
    });
  });

  it('fails the whole transaction when a sent update finds its row not as planned', async () => {
    const commandId = `cmd_${newId('pi')}`;
    const recorded = await flow.createIntentAlone(statement, newIntent(commandId), first(commandId));
    if (!recorded) throw new Error('the intent was not recorded');
    const change = { status: 'CANCELLED' as const, cancelled_at: new Date() };
    const planned = plannedIntentUpdate(recorded.intent, change, new Date());
    if (!planned) throw new Error('a status change is plannable');
    await expect(
      runInTransaction(service.dataSource, logger, async (tx) => {
        // Planned from a status the row does not have (it is PENDING): the update touches nothing.
        tx.send(payments.plannedIntentUpdateStatement('REQUIRES_CAPTURE', change, planned));
        await appendToOutbox(tx.manager, {
          topic: EventTopics.acquiring,
          event_name: AcquiringEvents.intentCancelled,
          event_type: 'ACQUIRING',
          source_id: recorded.intent.id,
          account_id: actor.account_id,
          master_account_id: actor.master_account_id,
          data: {},
        });
      }),
    ).rejects.toMatchObject({ code: 'P0002' });
    expect((await payments.findIntent(service.dataSource, recorded.intent.id))?.status).toBe('PENDING');
    expect((await storedEvents([recorded.intent.id])).map((event) => event.event_name)).toEqual([
      AcquiringEvents.intentCreated,
    ]);
    // A jsonb change is normalised by Postgres: not planned, read back instead.
    expect(plannedIntentUpdate(recorded.intent, { metadata: '{"b":1,"a":2}' }, new Date())).toBeUndefined();
  });
  /** A card create whose answer captured it: its attempt CAPTURE_REQUESTED, its settlement not yet run. */
  async function capturedCreate() {
    const commandId = `cmd_${newId('pi')}`;
    const recorded = await flow.createIntentAlone(statement, newIntent(commandId), first(commandId));
    if (!recorded?.attempt) throw new Error('the intent was not recorded');
    await runInTransaction(service.dataSource, logger, (tx) =>
      flow.applyAuthorization(tx, recorded, captured, null),
    );
    return { intentId: recorded.intent.id, attemptId: recorded.attempt.id };
  }

  it('settles a capture in three round trips, its attempt moved as planned', async () => {
    const settled = await capturedCreate();
    const wire = watchPgRoundTrips();
    try {
      await settlements.settle(settled.attemptId);
    } finally {
      wire.restore();
    }
    const transaction = wire.transactions().find(({ texts }) => texts.includes('WITH new_batch'));
    expect(transaction?.texts).toEqual([
      // BEGIN with its setting (GENERIC_PLANS), one simple query.
      'START TRANSACTION;',
      'SELECT i.*,',
      'WITH new_batch',
      'WITH touched',
      'INSERT INTO',
      'COMMIT',
      // The relay's wake-up, right behind COMMIT in the same write (outbox-writer.ts, outboxWakeOwed).
      'SELECT pg_notify($1,',
    ]);
    // BEGIN with the lock; the settlement; the attempt's move, the events and COMMIT.
    expect(transaction?.roundTrips).toBe(3);
    expect((await payments.findAttempt(service.dataSource, settled.attemptId))?.status).toBe('SETTLED');

    // The planned attempt (what the move's event and the intent's sync are built from) is the stored one.
    const moved = await capturedCreate();
    const next = await runInTransaction(service.dataSource, logger, async (tx) =>
      flow.transitionCheckedAttempt(
        tx,
        await flow.snapshot(tx.manager, moved.intentId, { lock: true }),
        'SETTLE',
        {
          arn: 'arn-planned',
        },
      ),
    );
    expect(next.attempt).toEqual(await payments.findAttempt(service.dataSource, moved.attemptId));
    expect(next.attempt?.status).toBe('SETTLED');
  });
});
