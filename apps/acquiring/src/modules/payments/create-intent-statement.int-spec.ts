import { AcquiringEvents } from '@paygrid/contracts';
import { newId } from '@paygrid/ids';
import { actorOf } from '@paygrid/testing';
import { Executor, OneStatement, runAsOneStatement } from '@paygrid/platform';
import { AcquiringService, startAcquiring } from '../../test/acquiring-service';
import { PaymentFlow } from './payment-flow';
import { PaymentPresenter } from './payment.presenter';
import { PaymentRepository, toIntent } from './payment.repository';
import { StoredCard } from './payment.types';

/**
 * A card create's first record as one statement (PaymentFlow.createIntentAlone): the intent, its first
 * attempt and their two created events are written together, and the events, built before the insert
 * from the rows as planned, are exactly what they would be if built from the rows as stored, byte for
 * byte: jsonb keeps an object's keys in its own order, which the plan follows (jsonbOrder).
 */
describe("a card create's first record in one statement", () => {
  let service: AcquiringService;
  let flow: PaymentFlow;
  let payments: PaymentRepository;
  let presenter: PaymentPresenter;
  const actor = actorOf();

  beforeAll(async () => {
    service = await startAcquiring();
    flow = service.app.get(PaymentFlow);
    payments = service.app.get(PaymentRepository);
    presenter = service.app.get(PaymentPresenter);
  }, 120_000);

  afterAll(() => service?.close());

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
});
