import { WebhookReceiver } from '@paygrid/testing';
import { connectCliBus, runCli } from '@paygrid/cli';
import {
  authorizationEntries,
  authorizationsCleared,
  authorizationsPerKey,
  cardBalancesAgree,
} from './chaos-card-invariants';
import { ChaosStack } from './chaos-stack';
import { ChaosClient, MERCHANT, Operation } from './chaos-load';

/**
 * What must hold after a fault, read from the services' own databases, from what the merchant's webhook
 * endpoint received and from the operators' `ledger verify`:
 * - one effect per key: at most one payment per merchant order (exactly one when acknowledged), never more
 *   captured than authorised, at most one refund and one payout per key, exactly the acknowledged ones;
 *   the same for card authorizations and their reversals (chaos-card-invariants.ts);
 * - handled once: no event written twice for one object (an outbox row per object and event name: a
 *   command or durable job run twice by two replicas would write its event twice), no durable job failed;
 * - nothing stuck: every payment, refund and payout of the run reaches a final state within its window,
 *   every approved authorization not reversed clears, and no durable job stays due without running;
 * - every event: each acquiring, payouts and issuing outbox row of the run is published, stored once by the
 *   dispatcher (applied once), delivered to the endpoint once as a delivery that succeeded, and received
 *   at least once;
 * - to the cent: each card's available balance (through the API) is what the acknowledged authorizations
 *   and reversals left, and each authorization's ledger entries match its state;
 * - the ledger: `paygrid ledger verify` is clean (postings, API balances and acquiring's settlements agree;
 *   the issuing ledger's own audit).
 * The eventual ones are polled until `deadlineMs`; a violation names the objects.
 */
export const FINAL_INTENT_STATUSES = ['SUCCEEDED', 'CANCELLED', 'FAILED'];
export const FINAL_REFUND_STATUSES = ['SUCCEEDED', 'FAILED'];
export const FINAL_PAYOUT_STATUSES = ['COMPLETED', 'FAILED_REFUNDED'];

/** The services whose events the load causes, and the merchant's endpoint receives. */
export const OUTBOX_DATABASES = ['paygrid_acquiring', 'paygrid_payouts', 'paygrid_issuing'] as const;
export type OutboxDatabase = (typeof OUTBOX_DATABASES)[number];

/** The apps whose durable jobs the load schedules (issuing: the authorizations' clearing). */
const JOB_DATABASES = ['paygrid_acquiring', 'paygrid_webhooks', 'paygrid_issuing'];

/** A durable job this far past its due time without running is stuck (reconcile intervals are 1 s). */
const JOB_OVERDUE_SECONDS = 20;

export interface InvariantInput {
  stack: ChaosStack;
  receiver: WebhookReceiver;
  receiverPath: string;
  endpointId: string;
  operations: Operation[];
  /** Reads what a client sees (the cards' balances). */
  client: ChaosClient;
  /** Each issued card's available balance (minor units) before the fault's load. */
  cardBalancesBefore: Map<string, bigint | undefined>;
  /** The run's log. */
  say: (line: string) => void;
  /** Outbox rows from these ids on belong to the run being checked. */
  outboxFrom: Record<OutboxDatabase, string>;
  deadlineMs: number;
}

export async function checkInvariants(input: InvariantInput): Promise<string[]> {
  const cards = { ...input, balancesBefore: input.cardBalancesBefore };
  const violations = [
    ...(await effectsPerKey(input)),
    ...(await payoutsPerKey(input)),
    ...(await authorizationsPerKey(cards)),
    ...(await cardBalancesAgree(cards)),
  ];
  const deadline = Date.now() + input.deadlineMs;
  let eventual: string[] = [];
  for (;;) {
    eventual = [
      ...(await nothingStuck(input)),
      ...summarise(await authorizationsCleared(cards)),
      ...(await jobsNotStuck(input)),
      ...(await everyEventDelivered(input)),
    ];
    if (eventual.length === 0 || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  violations.push(
    ...eventual,
    ...(await eventsWrittenOnce(input)),
    ...summarise(await authorizationEntries(cards)),
  );
  if (eventual.length === 0) violations.push(...(await ledgerVerified(input.stack, input.say)));
  return violations;
}

async function payoutsPerKey({ stack, operations }: InvariantInput): Promise<string[]> {
  const payouts = await stack.query<{ internal_note: string; n: number }>(
    'paygrid_payouts',
    `SELECT internal_note, count(*)::int AS n FROM payouts
      WHERE account_id = $1 AND internal_note = ANY($2) GROUP BY internal_note`,
    [MERCHANT.accountId, operations.map((operation) => operation.merchantOrderId)],
  );
  const payoutsPerOrder = new Map(payouts.map((row) => [row.internal_note, row.n]));
  const violations: string[] = [];
  for (const operation of operations) {
    const count = payoutsPerOrder.get(operation.merchantOrderId) ?? 0;
    const acknowledged = operation.steps.find((step) => step.step === 'payout')?.acknowledged ?? false;
    if (count > 1)
      violations.push(`${count} payouts for one payout key (order ${operation.merchantOrderId})`);
    if (acknowledged && count !== 1)
      violations.push(`acknowledged payout of order ${operation.merchantOrderId} stored ${count} times`);
  }
  return violations;
}

async function effectsPerKey({ stack, operations }: InvariantInput): Promise<string[]> {
  const violations: string[] = [];
  const orders = operations.map((operation) => operation.merchantOrderId);
  const intents = await stack.query<{ merchant_order_id: string; n: number }>(
    'paygrid_acquiring',
    `SELECT merchant_order_id, count(*)::int AS n FROM payment_intents
      WHERE account_id = $1 AND merchant_order_id = ANY($2) GROUP BY merchant_order_id`,
    [MERCHANT.accountId, orders],
  );
  const intentsPerOrder = new Map(intents.map((row) => [row.merchant_order_id, row.n]));
  for (const operation of operations) {
    const count = intentsPerOrder.get(operation.merchantOrderId) ?? 0;
    const acknowledged = operation.steps.find((step) => step.step === 'create')?.acknowledged ?? false;
    if (count > 1) violations.push(`${count} payments for order ${operation.merchantOrderId}`);
    if (acknowledged && count !== 1)
      violations.push(`acknowledged order ${operation.merchantOrderId} has ${count} payments`);
  }
  const intentIds = operations.flatMap((operation) =>
    operation.paymentIntentId ? [operation.paymentIntentId] : [],
  );
  const attempts = await stack.query<{
    payment_intent_id: string;
    amount_minor: string;
    captured_amount_minor: string;
  }>(
    'paygrid_acquiring',
    'SELECT payment_intent_id, amount_minor, captured_amount_minor FROM payment_attempts WHERE payment_intent_id = ANY($1)',
    [intentIds],
  );
  for (const attempt of attempts) {
    if (BigInt(attempt.captured_amount_minor) > BigInt(attempt.amount_minor)) {
      violations.push(
        `payment ${attempt.payment_intent_id} captured ${attempt.captured_amount_minor} of ${attempt.amount_minor}`,
      );
    }
  }
  const refunds = await stack.query<{ payment_intent_id: string; n: number }>(
    'paygrid_acquiring',
    'SELECT payment_intent_id, count(*)::int AS n FROM refunds WHERE payment_intent_id = ANY($1) GROUP BY payment_intent_id',
    [intentIds],
  );
  const refundsPerIntent = new Map(refunds.map((row) => [row.payment_intent_id, row.n]));
  for (const operation of operations) {
    if (!operation.paymentIntentId) continue;
    const count = refundsPerIntent.get(operation.paymentIntentId) ?? 0;
    const acknowledged = operation.steps.find((step) => step.step === 'refund')?.acknowledged ?? false;
    if (count > 1) violations.push(`${count} refunds for one refund key on ${operation.paymentIntentId}`);
    if (acknowledged && count !== 1)
      violations.push(`acknowledged refund on ${operation.paymentIntentId} stored ${count} times`);
  }
  return violations;
}

async function nothingStuck({ stack, operations }: InvariantInput): Promise<string[]> {
  const intentIds = operations.flatMap((operation) =>
    operation.paymentIntentId ? [operation.paymentIntentId] : [],
  );
  const intents = await stack.query<{ payment_intent_id: string; status: string }>(
    'paygrid_acquiring',
    'SELECT payment_intent_id, status FROM payment_intents WHERE payment_intent_id = ANY($1) AND NOT status = ANY($2)',
    [intentIds, FINAL_INTENT_STATUSES],
  );
  const refunds = await stack.query<{ refund_id: string; status: string }>(
    'paygrid_acquiring',
    'SELECT refund_id, status FROM refunds WHERE payment_intent_id = ANY($1) AND NOT status = ANY($2)',
    [intentIds, FINAL_REFUND_STATUSES],
  );
  const payouts = await stack.query<{ payout_id: string; status: string }>(
    'paygrid_payouts',
    'SELECT payout_id, status FROM payouts WHERE account_id = $1 AND internal_note = ANY($2) AND NOT status = ANY($3)',
    [MERCHANT.accountId, operations.map((operation) => operation.merchantOrderId), FINAL_PAYOUT_STATUSES],
  );
  return [
    ...intents.map((row) => `payment ${row.payment_intent_id} stuck in ${row.status}`),
    ...refunds.map((row) => `refund ${row.refund_id} stuck in ${row.status}`),
    ...payouts.map((row) => `payout ${row.payout_id} stuck in ${row.status}`),
  ];
}

/** No durable job failed, and none is overdue: whichever replica holds it, it runs. */
async function jobsNotStuck({ stack }: InvariantInput): Promise<string[]> {
  const violations: string[] = [];
  for (const database of JOB_DATABASES) {
    const jobs = await stack.query<{ job_id: string; status: string; attempts: number }>(
      database,
      `SELECT job_id, status, attempts FROM durable_jobs
        WHERE status = 'failed' OR (status = 'pending' AND due_at < now() - make_interval(secs => $1))`,
      [JOB_OVERDUE_SECONDS],
    );
    violations.push(
      ...jobs.map((job) =>
        job.status === 'failed'
          ? `${database} job ${job.job_id} failed after ${job.attempts} attempts`
          : `${database} job ${job.job_id} overdue by more than ${JOB_OVERDUE_SECONDS} s`,
      ),
    );
  }
  return summarise(violations);
}

/**
 * Each object's event of a name is written once: two replicas handling one command, one event or one
 * durable job run would each write it. (Names an object legitimately emits more than once are none of the
 * load's: a payment, its attempt, its refund and its payout each pass through every status once.)
 */
async function eventsWrittenOnce({ stack, outboxFrom }: InvariantInput): Promise<string[]> {
  const violations: string[] = [];
  for (const database of OUTBOX_DATABASES) {
    const repeated = await stack.query<{ message_key: string; event_name: string; n: number }>(
      database,
      `SELECT message_key, payload::jsonb->>'event_name' AS event_name, count(*)::int AS n FROM outbox
        WHERE id >= $1 AND payload::jsonb->>'master_account_id' = $2
        GROUP BY 1, 2 HAVING count(*) > 1`,
      [outboxFrom[database], MERCHANT.accountId],
    );
    violations.push(
      ...repeated.map((row) => `${row.event_name} of ${row.message_key} written ${row.n} times`),
    );
  }
  return summarise(violations);
}

/** `paygrid ledger verify` on the chaos stack, as on-call runs it, waiting for settlements in flight. */
async function ledgerVerified(stack: ChaosStack, say: (line: string) => void): Promise<string[]> {
  const lines: string[] = [];
  const code = await runCli(['ledger', 'verify', '--settle-wait', '30000'], {
    connect: () =>
      connectCliBus({
        brokers: stack.settings.kafkaBrokers.split(','),
        kafkaPrefix: stack.names.prefix,
        timeoutMs: 20_000,
        logLevel: 'silent',
      }),
    out: (line) => lines.push(line),
    err: (line) => lines.push(line),
  });
  if (code !== 0) return [`ledger verify: ${summarise(lines).join('; ')}`];
  // What it covered (both ledgers, the issuing one with the authorizations' entries), for the run's log.
  say(`  ${lines.join(' ')}`);
  return [];
}

async function everyEventDelivered({
  stack,
  receiver,
  receiverPath,
  endpointId,
  outboxFrom,
}: InvariantInput): Promise<string[]> {
  const outbox: { event_id: string; published: boolean; deliverable: boolean }[] = [];
  for (const database of OUTBOX_DATABASES) {
    outbox.push(
      ...(await stack.query<{ event_id: string; published: boolean; deliverable: boolean }>(
        database,
        `SELECT event_id, published_at IS NOT NULL AS published, payload::jsonb->>'event_type' <> 'OPERATIONS' AS deliverable
           FROM outbox WHERE id >= $1 AND payload::jsonb->>'master_account_id' = $2`,
        [outboxFrom[database], MERCHANT.accountId],
      )),
    );
  }
  const eventIds = outbox.map((row) => row.event_id);
  const stored = new Set(
    (
      await stack.query<{ event_id: string }>(
        'paygrid_webhooks',
        'SELECT event_id FROM webhook_events WHERE event_id = ANY($1)',
        [eventIds],
      )
    ).map((row) => row.event_id),
  );
  const deliveries = await stack.query<{ event_id: string; n: number; succeeded: number }>(
    'paygrid_webhooks',
    `SELECT event_id, count(*)::int AS n, count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded
       FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = ANY($2) GROUP BY event_id`,
    [endpointId, eventIds],
  );
  const deliveryOf = new Map(deliveries.map((row) => [row.event_id, row]));
  const received = new Set(
    receiver.received(receiverPath).map((request) => String(request.headers['webhook-id'])),
  );
  // A run that wrote no event would pass vacuously.
  const violations: string[] = outbox.length === 0 ? ['no event was written during the run'] : [];
  for (const row of outbox) {
    if (!row.published) violations.push(`event ${row.event_id} not published`);
    else if (!stored.has(row.event_id)) violations.push(`event ${row.event_id} not stored by the dispatcher`);
    if (!row.deliverable) continue;
    const delivery = deliveryOf.get(row.event_id);
    if (!delivery) violations.push(`event ${row.event_id} has no delivery`);
    else if (delivery.n !== 1) violations.push(`event ${row.event_id} has ${delivery.n} deliveries`);
    else if (delivery.succeeded !== 1) violations.push(`event ${row.event_id} not delivered yet`);
    if (!received.has(row.event_id)) violations.push(`event ${row.event_id} never reached the receiver`);
  }
  return summarise(violations);
}

/** Many events fail the same way at once: name a few, count the rest. */
function summarise(violations: string[]): string[] {
  if (violations.length <= 5) return violations;
  return [...violations.slice(0, 5), `… and ${violations.length - 5} more`];
}
