import { AcquiringEvents, PaymentIntentView } from '@paygrid/contracts';
import { GENERIC_PLANS, JobRunInfo, TransactionContext } from '@paygrid/platform';
import { actorOf, resultOf, watchPgRoundTrips } from '@paygrid/testing';
import { SANDBOX_CARDS } from '../connectors/sandbox.connector';
import { PaymentRepository } from '../payments/payment.repository';
import { AcquiringService, intentBody, sealedCard, startAcquiring } from '../../test/acquiring-service';
import { SettlementService } from './settlement.service';

/**
 * Captures cleared about the same time settle in one transaction (SettlementService): the intents locked in
 * one statement, the settlements in one round trip, and the attempts' moves and the runs' completions with
 * the events and COMMIT. A batch that cannot commit is recorded again one capture per transaction, so
 * that only the capture that cannot be recorded fails its run.
 *
 * The gathering window is endless here (SETTLEMENT_GATHER_MS): a batch is written when its fourth capture
 * joins it (SETTLEMENT_BATCH_MAX), a barrier of the test's, not a timer. The settlement delay keeps the
 * jobs from settling anything by themselves: the test runs the job's handler.
 */
describe('settlements of captures cleared together', () => {
  let service: AcquiringService;
  let settlements: SettlementService;
  let payments: PaymentRepository;
  const actor = actorOf();

  beforeAll(async () => {
    service = await startAcquiring({
      env: { SETTLEMENT_DELAY_MS: '600000', SETTLEMENT_GATHER_MS: '600000', SETTLEMENT_BATCH_MAX: '4' },
    });
    settlements = service.app.get(SettlementService);
    payments = service.app.get(PaymentRepository);
  }, 120_000);

  afterAll(() => service?.close());

  /** A card payment captured with its answer (auto-capture): its attempt CAPTURE_REQUESTED, not yet settled. */
  async function captured(): Promise<{ intentId: string; attemptId: string }> {
    const body = intentBody({
      payment_method: sealedCard(service.config, { card_number: SANDBOX_CARDS.approvedVisa, cvc: '123' }),
    });
    const intent = resultOf(
      await service.mutate<PaymentIntentView>('acquiring.payment_intents.create', body, { actor }),
    );
    const attemptId = intent.latest_payment_attempt?.attempt_id ?? '';
    expect((await payments.findAttempt(service.dataSource, attemptId))?.status).toBe('CAPTURE_REQUESTED');
    return { intentId: intent.payment_intent_id, attemptId };
  }

  async function fourCaptured() {
    const captures = [];
    for (let index = 0; index < 4; index += 1) captures.push(await captured());
    return captures;
  }

  /**
   * A job run whose completion marks the capture's own settle job done, as the runner's does: sent, not
   * awaited (JobStore.completeWithin).
   */
  const runOf = (attemptId: string, complete?: (tx: TransactionContext) => Promise<void>): JobRunInfo => ({
    kind: 'settle_capture',
    id: `run-of-${attemptId}`,
    attempt: 1,
    completeIn:
      complete ??
      ((tx) => {
        tx.send({
          sql: `UPDATE durable_jobs SET status = 'done', completed_at = now() WHERE kind = 'settle_capture' AND subject_id = $1`,
          params: [attemptId],
        });
        return Promise.resolve();
      }),
  });

  const statusOf = async (attemptId: string) =>
    (await payments.findAttempt(service.dataSource, attemptId))?.status;

  const settlementsOf = (attemptIds: string[]) =>
    service.dataSource.query(
      'SELECT payment_attempt_id, settlement_batch_id FROM settlements WHERE payment_attempt_id = ANY($1)',
      [attemptIds],
    ) as Promise<{ payment_attempt_id: string; settlement_batch_id: string }[]>;

  const settledEvents = async (intentIds: string[]) =>
    (
      (await service.dataSource.query(`SELECT payload FROM outbox WHERE payload::jsonb->>'event_name' = $1`, [
        AcquiringEvents.settlementSucceeded,
      ])) as { payload: string }[]
    )
      .map((row) => JSON.parse(row.payload) as { data: { payment_intent_id: string } })
      .filter((event) => intentIds.includes(event.data.payment_intent_id));

  it('records four captures in one transaction of three round trips, each settled once, its run done', async () => {
    const captures = await fourCaptured();
    const attemptIds = captures.map(({ attemptId }) => attemptId);
    const wire = watchPgRoundTrips();
    const reads = jest.spyOn(PaymentRepository.prototype, 'findAttemptsStatement');
    let readIds: (readonly string[])[];
    try {
      await Promise.all(captures.map(({ attemptId }) => settlements.settle(attemptId, runOf(attemptId))));
      readIds = reads.mock.calls.map(([ids]) => ids);
    } finally {
      wire.restore();
      reads.mockRestore();
    }

    // Runs starting together (a timer slot's) read their attempts with one statement, on its generic plan
    // (its custom plans were made again on every call), BEGIN and COMMIT riding with it: one round trip.
    expect(readIds).toEqual([attemptIds]);
    const attemptReads = wire.transactions().filter(({ texts }) => texts.includes('SELECT *'));
    expect(attemptReads.map(({ statements, roundTrips }) => [statements[0], roundTrips])).toEqual([
      [expect.stringContaining(GENERIC_PLANS), 1],
    ]);

    const written = wire.transactions().filter(({ texts }) => texts.includes('WITH new_batch'));
    expect(written).toHaveLength(1);
    const [batch] = written;
    const count = (text: string) => batch.texts.filter((sent) => sent === text).length;
    expect([
      count('SELECT i.*,'),
      count('WITH new_batch'),
      count('WITH touched'),
      count('UPDATE durable_jobs'),
    ]).toEqual([1, 4, 4, 4]);
    // BEGIN with the locks; the settlements; the moves, the runs' completions and the events with COMMIT.
    expect(batch.roundTrips).toBe(3);

    expect(await Promise.all(attemptIds.map(statusOf))).toEqual(['SETTLED', 'SETTLED', 'SETTLED', 'SETTLED']);
    const stored = await settlementsOf(attemptIds);
    expect(stored.map((row) => row.payment_attempt_id).sort()).toEqual([...attemptIds].sort());
    expect(new Set(stored.map((row) => row.settlement_batch_id)).size).toBe(1);
    expect(await settledEvents(captures.map(({ intentId }) => intentId))).toHaveLength(4);
    const [{ done }] = await service.dataSource.query(
      `SELECT count(*)::int AS done FROM durable_jobs WHERE kind = 'settle_capture' AND subject_id = ANY($1) AND status = 'done'`,
      [attemptIds],
    );
    expect(done).toBe(4);
  });

  it('falls back to one transaction per capture when the batch fails: only the capture that cannot be recorded fails', async () => {
    const captures = await fourCaptured();
    const broken = captures[2];
    const outcomes = await Promise.allSettled(
      captures.map(({ attemptId }) =>
        settlements.settle(
          attemptId,
          attemptId === broken.attemptId
            ? runOf(attemptId, () => Promise.reject(new Error('this run cannot be recorded')))
            : runOf(attemptId),
        ),
      ),
    );

    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toEqual(new Error('this run cannot be recorded'));
    const others = captures.filter((capture) => capture !== broken);
    expect(await Promise.all(others.map(({ attemptId }) => statusOf(attemptId)))).toEqual([
      'SETTLED',
      'SETTLED',
      'SETTLED',
    ]);
    expect(await statusOf(broken.attemptId)).toBe('CAPTURE_REQUESTED');
    expect(
      (await settlementsOf(captures.map(({ attemptId }) => attemptId)))
        .map((row) => row.payment_attempt_id)
        .sort(),
    ).toEqual(others.map(({ attemptId }) => attemptId).sort());
    expect(await settledEvents([broken.intentId])).toHaveLength(0);
    expect(await settledEvents(others.map(({ intentId }) => intentId))).toHaveLength(3);
  });
});
