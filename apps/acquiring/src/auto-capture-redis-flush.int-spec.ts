import Redis from 'ioredis';
import { AcquiringCommands, PaymentIntentView } from '@paygrid/contracts';
import { DurableJobs } from '@paygrid/platform';
import { actorOf, resultOf, testRedisUrl, waitFor } from '@paygrid/testing';
import { SANDBOX_CARDS } from './modules/connectors/sandbox.connector';
import { AcquiringService, intentBody, sealedCard, startAcquiring } from './test/acquiring-service';

/**
 * Issue 14: a Redis that loses its state while 100 manual-capture intents wait for their window to
 * close loses none of them. The service runs on a Redis logical database of this file's own (db 7),
 * so emptying it (FLUSHDB) is, for the service, exactly a FLUSHALL, and touches nothing else. After the
 * flush only Postgres knows the captures are due; the reconciler must bring each one back, and each
 * must run once.
 */
const INTENTS = 100;
const WINDOW_MS = 20_000;
const REDIS_DB = 7;

describe('auto-capture across a Redis flush', () => {
  let service: AcquiringService;
  let redis: Redis;
  const actor = actorOf();

  beforeAll(async () => {
    const url = new URL(testRedisUrl());
    url.pathname = `/${REDIS_DB}`;
    redis = new Redis(url.toString(), { maxRetriesPerRequest: 2 });
    await redis.flushdb();
    service = await startAcquiring({
      env: { REDIS_URL: url.toString(), CAPTURE_WINDOW_OVERRIDE_MS: String(WINDOW_MS) },
    });
  }, 120_000);

  afterAll(async () => {
    await service?.close();
    await redis?.flushdb();
    redis?.disconnect();
  });

  const attemptIds: string[] = [];
  const autoCaptureJobs = (): Promise<{ job_id: string; status: string; attempts: number }[]> =>
    service.dataSource.query(
      `SELECT job_id, status, attempts FROM durable_jobs WHERE kind = 'auto_capture' AND subject_id = ANY($1)`,
      [attemptIds],
    );
  const statesOf = async () =>
    (await autoCaptureJobs()).map(({ status, attempts }) => ({ status, attempts }));

  it('captures all 100 once the window closes, each exactly once', async () => {
    const intents: PaymentIntentView[] = [];
    for (let batch = 0; batch < INTENTS / 10; batch += 1) {
      const created = await Promise.all(
        Array.from({ length: 10 }, async () =>
          resultOf(
            await service.mutate<PaymentIntentView>(
              AcquiringCommands.createIntent,
              intentBody({
                payment_method: sealedCard(
                  service.config,
                  { card_number: SANDBOX_CARDS.approvedVisa, cvc: '123' },
                  { auto_capture: false },
                ),
              }),
              { actor },
            ),
          ),
        ),
      );
      intents.push(...created);
    }
    expect(intents.every((intent) => intent.intent_status === 'REQUIRES_CAPTURE')).toBe(true);
    attemptIds.push(...intents.map((intent) => intent.latest_payment_attempt?.attempt_id ?? ''));
    // Recorded with the authorisation, in its transaction; handed to BullMQ after the commit.
    const jobIds = new Set((await autoCaptureJobs()).map((job) => `${job.job_id}-1`));
    expect(jobIds.size).toBe(INTENTS);
    const queue = service.app.get(DurableJobs).queue;
    await waitFor(
      async () =>
        (await queue.getJobs(['delayed'])).filter((job) => jobIds.has(job.id ?? '')).length === INTENTS,
      {
        what: `${INTENTS} delayed auto-capture jobs in Redis`,
      },
    );

    await redis.flushdb();
    expect(await queue.getDelayedCount()).toBe(0);
    // Nothing ran before the flush: every capture is still due, and now recorded only in Postgres.
    expect(await statesOf()).toEqual(Array(INTENTS).fill({ status: 'pending', attempts: 0 }));

    await waitFor(async () => (await autoCaptureJobs()).every((job) => job.status === 'done'), {
      timeoutMs: WINDOW_MS + 60_000,
      intervalMs: 500,
      what: 'every auto-capture to run after the window',
    });
    expect(await statesOf()).toEqual(Array(INTENTS).fill({ status: 'done', attempts: 1 }));
    for (const intent of intents) {
      const current = resultOf(
        await service.send<PaymentIntentView>(
          AcquiringCommands.retrieveIntent,
          { payment_intent_id: intent.payment_intent_id },
          { actor },
        ),
      );
      expect(current).toMatchObject({ intent_status: 'SUCCEEDED', captured_amount: '10.50' });
    }
    const succeeded: { source_id: string; n: number }[] = await service.dataSource.query(
      `SELECT payload::jsonb->>'source_id' AS source_id, count(*)::int AS n FROM outbox
        WHERE payload::jsonb->>'event_name' = 'acquiring.payment_intent.succeeded'
          AND payload::jsonb->>'source_id' = ANY($1) GROUP BY 1`,
      [intents.map((intent) => intent.payment_intent_id)],
    );
    expect(new Map(succeeded.map((row) => [row.source_id, row.n]))).toEqual(
      new Map(intents.map((intent) => [intent.payment_intent_id, 1])),
    );
  }, 180_000);
});
