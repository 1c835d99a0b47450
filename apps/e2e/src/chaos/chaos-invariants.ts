import { WebhookReceiver } from '@paygrid/testing';
import { ChaosStack } from './chaos-stack';
import { MERCHANT, Operation } from './chaos-load';

/**
 * What must hold after a fault, read from the services' own databases and from what the merchant's
 * webhook endpoint received:
 * - one effect per key: at most one payment per merchant order (exactly one when acknowledged), never more
 *   captured than authorised, at most one refund per refund key, exactly the acknowledged ones;
 * - nothing stuck: every payment and refund of the run reaches a final state within its window;
 * - every event: each acquiring outbox row of the run is published, stored once by the dispatcher
 *   (applied once), delivered to the endpoint once as a delivery that succeeded, and received at least once.
 * The eventual ones are polled until `deadlineMs`; a violation names the objects.
 */
export const FINAL_INTENT_STATUSES = ['SUCCEEDED', 'CANCELLED', 'FAILED'];
export const FINAL_REFUND_STATUSES = ['SUCCEEDED', 'FAILED'];

export interface InvariantInput {
  stack: ChaosStack;
  receiver: WebhookReceiver;
  receiverPath: string;
  endpointId: string;
  operations: Operation[];
  /** Outbox rows from this id on belong to the run being checked. */
  outboxFromId: string;
  deadlineMs: number;
}

export async function checkInvariants(input: InvariantInput): Promise<string[]> {
  const violations = await effectsPerKey(input);
  const deadline = Date.now() + input.deadlineMs;
  let eventual: string[] = [];
  for (;;) {
    eventual = [...(await nothingStuck(input)), ...(await everyEventDelivered(input))];
    if (eventual.length === 0 || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return [...violations, ...eventual];
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
  return [
    ...intents.map((row) => `payment ${row.payment_intent_id} stuck in ${row.status}`),
    ...refunds.map((row) => `refund ${row.refund_id} stuck in ${row.status}`),
  ];
}

async function everyEventDelivered({
  stack,
  receiver,
  receiverPath,
  endpointId,
  outboxFromId,
}: InvariantInput): Promise<string[]> {
  const outbox = await stack.query<{ event_id: string; published: boolean; deliverable: boolean }>(
    'paygrid_acquiring',
    `SELECT event_id, published_at IS NOT NULL AS published, payload::jsonb->>'event_type' <> 'OPERATIONS' AS deliverable
       FROM outbox WHERE id >= $1 AND payload::jsonb->>'master_account_id' = $2`,
    [outboxFromId, MERCHANT.accountId],
  );
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
  const violations: string[] = outbox.length === 0 ? ['no acquiring event was written during the run'] : [];
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
