import { AcquiringCommand, PaymentIntentView } from '@paygrid/contracts';
import { actorOf, refusalOf, resultOf, waitFor } from '@paygrid/testing';
import { SANDBOX_CARDS } from './modules/connectors/sandbox.connector';
import { AcquiringService, intentBody, sealedCard, startAcquiring } from './test/acquiring-service';

/**
 * The acquiring service over the real bus (this file's own stack of topics, see ServiceHarness):
 * commands as the gateway sends them (card sealed, a command id on every mutating one), against the
 * real Postgres, Kafka and Redis, with the sandbox processor's outcomes and the delayed jobs.
 */
describe('acquiring service over the real bus', () => {
  let service: AcquiringService;
  const actor = actorOf();

  beforeAll(async () => {
    service = await startAcquiring();
  }, 120_000);

  afterAll(async () => {
    await service?.close();
  });

  const card = (number: string, extra: Record<string, unknown> = {}) =>
    sealedCard(service.config, { card_number: number, cvc: '123' }, extra);

  async function create(overrides: Record<string, unknown> = {}): Promise<PaymentIntentView> {
    return resultOf(await service.mutate<PaymentIntentView>(AcquiringCommand.createIntent.type, intentBody(overrides), { actor }));
  }

  /** The create as a gateway retry re-sends it: same body, same command id. */
  function createAs(commandId: string, body: Record<string, unknown>) {
    return service.send<PaymentIntentView>(AcquiringCommand.createIntent.type, body, { actor, commandId });
  }

  async function retrieve(id: string): Promise<PaymentIntentView> {
    return resultOf(await service.send<PaymentIntentView>(AcquiringCommand.retrieveIntent.type, { payment_intent_id: id }, { actor }));
  }

  it('captures a payment with an approved card and settles it a moment later', async () => {
    const intent = await create({ payment_method: card(SANDBOX_CARDS.approvedVisa) });
    expect(intent.intent_status).toBe('SUCCEEDED');
    expect(intent.captured_amount).toBe('10.50');
    expect(intent.latest_payment_attempt?.attempt_status).toBe('CAPTURE_REQUESTED');
    expect(intent.latest_payment_attempt?.payment_method.card.card_number).toBe('424242******4242');
    expect(intent.latest_payment_attempt?.auth_code).toMatch(/^[0-9A-F]{6}$/);
    const settled = await waitFor(
      async () => {
        const current = await retrieve(intent.payment_intent_id);
        return current.latest_payment_attempt?.attempt_status === 'SETTLED' ? current : undefined;
      },
      { what: 'the attempt to settle' },
    );
    expect(settled.latest_payment_attempt?.arn).toMatch(/^\d{23}$/);
    // Settling changes the attempt, not the intent (SUCCEEDED stays SUCCEEDED): its row is not rewritten.
    expect(settled.update_time).toBe(intent.update_time);
  });

  it('answers a declined card with the decline code and lets the intent take another card', async () => {
    const intent = await create({ payment_method: card(SANDBOX_CARDS.insufficientFunds) });
    expect(intent.intent_status).toBe('REQUIRES_PAYMENT_METHOD');
    expect(intent.latest_payment_attempt?.attempt_status).toBe('FAILED');
    expect(intent.latest_payment_attempt?.failure_code).toBe('insufficient_funds');
    const confirmed = resultOf(
      await service.mutate<PaymentIntentView>(
        AcquiringCommand.confirmIntent.type,
        { payment_intent_id: intent.payment_intent_id, payment_method: card(SANDBOX_CARDS.approvedMastercard) },
        { actor },
      ),
    );
    expect(confirmed.intent_status).toBe('SUCCEEDED');
  });

  it('refuses a card number that fails the Luhn check before recording anything', async () => {
    const refusal = refusalOf(
      await service.mutate(AcquiringCommand.createIntent.type, intentBody({ payment_method: card('4242424242424241') }), { actor }),
    );
    expect(refusal.status).toBe(400);
    expect(refusal.body).toMatchObject({ type: 'card_error', code: 'invalid_number' });
  });

  it('reports another account’s intent exactly like a missing one', async () => {
    const intent = await create();
    const refusal = refusalOf(
      await service.send(AcquiringCommand.retrieveIntent.type, { payment_intent_id: intent.payment_intent_id }, { actor: actorOf() }),
    );
    const missing = refusalOf(
      await service.send(AcquiringCommand.retrieveIntent.type, { payment_intent_id: 'pi_01JAAAAAAAAAAAAAAAAAAAAAAA' }, { actor }),
    );
    expect(refusal).toEqual(missing);
    expect(refusal.body).toMatchObject({ type: 'invalid_request_error', code: 'resource_not_found' });
  });

  it('applies a repeated command id once and answers the repeat with the stored intent', async () => {
    const commandId = `cmd_repeat_${Date.now()}`;
    const body = intentBody({ payment_method: card(SANDBOX_CARDS.approvedVisa) });
    const first = resultOf(await createAs(commandId, body));
    const second = resultOf(await createAs(commandId, body));
    expect(second).toEqual(first);
    const [{ n }] = await service.dataSource.query('SELECT count(*)::int AS n FROM payment_intents WHERE create_command_id = $1', [commandId]);
    expect(n).toBe(1);
  });

  // The pipeline no longer pre-reads the ledger for a create (findsStoredReply): the handler must find
  // the stored reply itself. After settlement the intent's current view differs from the reply stored
  // at capture, so only a stored reply passes.
  it('answers a repeat after settlement with the stored reply, not the current intent', async () => {
    const commandId = `cmd_settled_repeat_${Date.now()}`;
    const body = intentBody({ payment_method: card(SANDBOX_CARDS.approvedVisa) });
    const first = resultOf(await createAs(commandId, body));
    expect(first.latest_payment_attempt?.attempt_status).toBe('CAPTURE_REQUESTED');
    await waitFor(
      async () => (await retrieve(first.payment_intent_id)).latest_payment_attempt?.attempt_status === 'SETTLED' || undefined,
      { what: 'the attempt to settle' },
    );
    const repeat = resultOf(await createAs(commandId, body));
    expect(repeat).toEqual(first);
  });

  it('answers a repeat that names a new customer without inserting the customer again', async () => {
    const commandId = `cmd_customer_repeat_${Date.now()}`;
    const externalId = `ext-${commandId}`;
    const body = intentBody({ payment_method: card(SANDBOX_CARDS.approvedVisa), customer: { external_customer_id: externalId } });
    const first = resultOf(await createAs(commandId, body));
    const repeat = resultOf(await createAs(commandId, body));
    expect(repeat).toEqual(first);
    const [{ n }] = await service.dataSource.query('SELECT count(*)::int AS n FROM customers WHERE external_customer_id = $1', [externalId]);
    expect(n).toBe(1);
  });

  it('answers a repeat of a refused create with the stored refusal', async () => {
    const commandId = `cmd_refused_repeat_${Date.now()}`;
    const body = intentBody({ payment_method: card(SANDBOX_CARDS.approvedVisa) });
    resultOf(await createAs(commandId, body));
    // What a refusal stored by the completing transaction looks like to a repeat.
    const refusal = { ok: false, error: { status: 409, body: { type: 'invalid_request_error', code: 'test_refusal', message: 'stored' } } };
    await service.dataSource.query('UPDATE processed_commands SET reply = $2 WHERE command_id = $1', [commandId, JSON.stringify(refusal)]);
    const repeat = refusalOf(await createAs(commandId, body));
    expect(repeat.status).toBe(409);
    expect(repeat.body).toMatchObject({ code: 'test_refusal' });
  });
});

/**
 * The window-close capture is a durable delayed job: it survives a restart of the service, and a Redis
 * that lost it (the service's BullMQ keys are deleted when it stops) gets it back from Postgres.
 */
describe('durable capture-window jobs', () => {
  let service: AcquiringService;
  const actor = actorOf();

  afterAll(async () => {
    await service?.close();
  });

  it('captures at window close after the service restarted and Redis lost the job', async () => {
    service = await startAcquiring({ env: { CAPTURE_WINDOW_OVERRIDE_MS: '4000' } });
    const authorised = resultOf(
      await service.mutate<PaymentIntentView>(
        AcquiringCommand.createIntent.type,
        intentBody({ payment_method: sealedCard(service.config, { card_number: SANDBOX_CARDS.approvedVisa, cvc: '123' }, { auto_capture: false }) }),
        { actor },
      ),
    );
    expect(authorised.intent_status).toBe('REQUIRES_CAPTURE');
    // Stop at once and drop the service's BullMQ keys: the job now exists only in Postgres.
    await service.restartApp();
    const captured = await waitFor(
      async () => {
        const reply = await service.send<PaymentIntentView>(
          AcquiringCommand.retrieveIntent.type,
          { payment_intent_id: authorised.payment_intent_id },
          { actor },
        );
        return reply.ok && reply.result.intent_status === 'SUCCEEDED' ? reply.result : undefined;
      },
      { timeoutMs: 30_000, what: 'the window-close capture after the restart' },
    );
    expect(captured.captured_amount).toBe('10.50');
    const [job] = await service.dataSource.query(`SELECT status FROM durable_jobs WHERE kind = 'auto_capture'`);
    expect(job.status).toBe('done');
  }, 120_000);
});
