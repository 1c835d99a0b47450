import { randomBytes, randomUUID } from 'node:crypto';
import { SANDBOX_SEED_DEFAULTS } from '@paygrid/contracts';
import { CardAuthorization, cardStepsOf, planAuthorization, runCardSteps } from './chaos-cards';

/**
 * The bounded load the chaos suite drives through a fault, as a well-behaved client would: each operation
 * authorizes a small amount on one of the run's issued cards (every third reversed; chaos-cards.ts), then
 * creates a card payment (authorised, not captured), captures it, refunds part of it and pays out part of
 * the balance the payments built (once it has settled; every fourth payout with the sandbox's failing
 * amount, so it goes FAILED and comes back), every step with an idempotency key of its own. A step that
 * gets no answer, a 5xx (api_error: "safe to retry with the same idempotency key"), a 429 or
 * `request_being_processed` is retried with the same key and the same body, with backoff, until it gets a
 * final answer or its deadline passes. Any other 4xx is final. With several gateways, each request goes
 * to the next one in turn, as a load balancer would send it.
 *
 * It counts what a client saw: requests sent (retries included), steps acknowledged (a 2xx in the end),
 * and every non-2xx answer by status (`conn` for no answer at all).
 */
export const MERCHANT = SANDBOX_SEED_DEFAULTS.master;

export interface LoadOptions {
  operations: number;
  concurrency: number;
  /** How long one step keeps retrying before the client gives up on it. */
  stepDeadlineMs: number;
}

export type StepName = 'authorize' | 'reverse' | 'create' | 'capture' | 'refund' | 'payout' | 'setup';

/** The acquiring and payout steps of one operation, in order (after its card steps). */
export const PAYMENT_STEPS: StepName[] = ['create', 'capture', 'refund', 'payout'];

/** The payout of an operation; the sandbox bank rejects an amount ending in .13 (then refunds it). */
const PAYOUT_AMOUNT = '1.00';
const FAILING_PAYOUT_AMOUNT = '1.13';

export interface StepOutcome {
  step: StepName;
  key: string;
  acknowledged: boolean;
  /** Final non-retryable refusal, if any. */
  refusal?: { status: number; body: string };
  /**
   * A refusal that is a true outcome of the fault, not a failure: why (a reversal the clearing job beat).
   * The invariants check the claim.
   */
  late?: string;
}

export interface Operation {
  merchantOrderId: string;
  amount: string;
  refundAmount: string;
  payoutAmount: string;
  paymentIntentId?: string;
  payoutId?: string;
  card: CardAuthorization;
  steps: StepOutcome[];
}

/** The steps an operation plans (its card steps, then the payment steps). */
export function plannedSteps(operation: Operation): StepName[] {
  return [...cardStepsOf(operation.card), ...PAYMENT_STEPS];
}

export class LoadStats {
  sent = 0;
  acknowledged = 0;
  readonly errors = new Map<string, number>();

  count(status: number | 'conn'): void {
    this.sent += 1;
    if (typeof status === 'number' && status < 300) return;
    const key = String(status);
    this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
  }

  errorsByStatus(): string {
    if (this.errors.size === 0) return '-';
    return [...this.errors.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
  }
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

export class ChaosClient {
  private token?: string;
  private nextGateway = 0;

  constructor(
    private readonly apiBases: string[],
    readonly stats: LoadStats,
  ) {}

  /** The merchant's token (fetched once; a token call is a POST without an idempotency key). */
  async authenticate(deadlineMs: number): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    for (let attempt = 0; ; attempt += 1) {
      const answer = await this.call('POST', '/v1/connect/token', undefined, {
        'x-client-id': MERCHANT.clientId,
        'x-api-key': MERCHANT.apiKey,
      });
      if (answer && answer.status === 200) {
        this.token = String(answer.body.auth_token);
        return;
      }
      if (Date.now() > deadline) throw new Error(`no token: ${answer?.status} ${answer?.text}`);
      await backoff(attempt);
    }
  }

  /** A POST outside the measured load (the run's setup), retried the same way. */
  post(path: string, body: unknown, deadlineMs: number) {
    return this.step('setup', 'POST', path, body, deadlineMs);
  }

  /**
   * Polls a GET (outside the counted load) until `accept` takes its 200 body (answered) or the deadline
   * passes (undefined); failed reads are retried like any other.
   */
  async readUntil(
    path: string,
    accept: (body: Record<string, unknown>) => boolean,
    deadlineMs: number,
  ): Promise<Record<string, unknown> | undefined> {
    const deadline = Date.now() + deadlineMs;
    for (let attempt = 0; ; attempt += 1) {
      const answer = await this.call(
        'GET',
        path,
        undefined,
        { 'x-auth-token': `Bearer ${this.token}`, 'x-client-id': MERCHANT.clientId },
        false,
      );
      if (answer?.status === 200 && accept(answer.body)) return answer.body;
      if (Date.now() > deadline) return undefined;
      await backoff(Math.min(attempt, 1));
    }
  }

  /** One step, retried with its key until a final answer or the deadline. */
  async step(
    step: StepName,
    method: string,
    path: string,
    body: unknown,
    deadlineMs: number,
  ): Promise<{ outcome: StepOutcome; answer?: Answer }> {
    const key = randomUUID();
    const deadline = Date.now() + deadlineMs;
    for (let attempt = 0; ; attempt += 1) {
      const answer = await this.call(method, path, body, {
        'x-auth-token': `Bearer ${this.token}`,
        'x-client-id': MERCHANT.clientId,
        'x-idempotency-key': key,
      });
      if (answer && answer.status < 300) {
        this.stats.acknowledged += 1;
        return { outcome: { step, key, acknowledged: true }, answer };
      }
      if (answer && !retryable(answer)) {
        return {
          outcome: {
            step,
            key,
            acknowledged: false,
            refusal: { status: answer.status, body: answer.text.slice(0, 200) },
          },
          answer,
        };
      }
      if (Date.now() > deadline) return { outcome: { step, key, acknowledged: false } };
      await backoff(attempt);
    }
  }

  private async call(
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string>,
    counted = true,
  ): Promise<Answer | undefined> {
    const apiBase = this.apiBases[this.nextGateway++ % this.apiBases.length];
    try {
      const response = await fetch(`${apiBase}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await response.text();
      if (counted) this.stats.count(response.status);
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // not JSON: kept as text
      }
      return { status: response.status, body: parsed, text };
    } catch {
      if (counted) this.stats.count('conn');
      return undefined;
    }
  }
}

function retryable(answer: Answer): boolean {
  if (answer.status >= 500 || answer.status === 429) return true;
  return answer.body.code === 'request_being_processed';
}

function backoff(attempt: number): Promise<void> {
  const ms = Math.min(250 * 2 ** attempt, 2_000);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs `operations` authorize (→ reverse) then create → capture → refund → payout flows on `cardIds`,
 * `concurrency` at a time; `onProgress` after each.
 */
export async function driveLoad(
  client: ChaosClient,
  options: LoadOptions,
  cardIds: string[],
  onProgress: (done: number) => void,
): Promise<Operation[]> {
  const operations: Operation[] = Array.from({ length: options.operations }, (_, index) => {
    const merchantOrderId = `chaos-${randomBytes(5).toString('hex')}`;
    return {
      merchantOrderId,
      amount: `${10 + (index % 7)}.00`,
      refundAmount: '1.00',
      payoutAmount: index % 4 === 3 ? FAILING_PAYOUT_AMOUNT : PAYOUT_AMOUNT,
      card: planAuthorization(index, cardIds, merchantOrderId),
      steps: [],
    };
  });
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let index = next++; index < operations.length; index = next++) {
      await runOperation(client, operations[index], options.stepDeadlineMs, options.concurrency);
      onProgress(++done);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return operations;
}

async function runOperation(
  client: ChaosClient,
  operation: Operation,
  deadlineMs: number,
  concurrency: number,
): Promise<void> {
  // The card steps first and together: a reversal right after its authorization, well before it clears.
  await runCardSteps(client, operation.card, operation.steps, deadlineMs);
  const created = await client.step(
    'create',
    'POST',
    '/v2/payment_intents/create',
    {
      amount: operation.amount,
      currency: 'USD',
      merchant_order_id: operation.merchantOrderId,
      description: 'chaos',
      return_url: 'https://shop.example/return',
      payment_method: {
        card: {
          card_name: 'Chaos Monkey',
          card_number: '4242424242424242',
          expiry_month: '12',
          expiry_year: String(new Date().getUTCFullYear() + 2),
          cvc: '123',
          auto_capture: false,
        },
      },
    },
    deadlineMs,
  );
  operation.steps.push(created.outcome);
  if (!created.outcome.acknowledged || !created.answer) return;
  const intentId = String(created.answer.body.payment_intent_id);
  operation.paymentIntentId = intentId;
  const captured = await client.step(
    'capture',
    'POST',
    `/v2/payment_intents/${intentId}/capture`,
    { amount_to_capture: operation.amount },
    deadlineMs,
  );
  operation.steps.push(captured.outcome);
  if (!captured.outcome.acknowledged) return;
  const refunded = await client.step(
    'refund',
    'POST',
    '/v2/payment/refunds',
    { payment_intent_id: intentId, amount: operation.refundAmount, reason: 'requested_by_customer' },
    deadlineMs,
  );
  operation.steps.push(refunded.outcome);
  if (!refunded.outcome.acknowledged) return;
  await payOut(client, operation, deadlineMs, concurrency);
}

/**
 * A payout is refused (400, stored with its key) above the available balance, so the client waits until
 * the settled balance covers every payout that may be in flight at once, as a merchant would check
 * before paying out. Each payment adds far more than a payout takes, so the balance only grows.
 */
async function payOut(
  client: ChaosClient,
  operation: Operation,
  deadlineMs: number,
  concurrency: number,
): Promise<void> {
  const neededMinor = Math.round(Number(FAILING_PAYOUT_AMOUNT) * 100) * concurrency;
  await client.readUntil(
    '/v2/payment/balances/USD',
    (balance) => Math.round(Number(balance.available_balance) * 100) >= neededMinor,
    deadlineMs,
  );
  const paid = await client.step(
    'payout',
    'POST',
    '/v2/payment/payout/create',
    {
      payout_currency: 'USD',
      payout_amount: operation.payoutAmount,
      statement_descriptor: 'CHAOS PAYOUT',
      // The chaos invariants find the payout of an operation by its note.
      internal_note: operation.merchantOrderId,
    },
    deadlineMs,
  );
  operation.steps.push(paid.outcome);
  if (paid.outcome.acknowledged && paid.answer) operation.payoutId = String(paid.answer.body.payout_id);
}
