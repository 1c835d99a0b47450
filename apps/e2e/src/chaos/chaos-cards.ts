import { SANDBOX_POOL_BIN } from '@paygrid/contracts';
import { cardholderBody } from '../issuing/support/issuing-e2e';
import type { ChaosClient, StepOutcome } from './chaos-load';

/**
 * The card side of the chaos load (issue #15): what a card network and an issuer would do through the
 * gateway. Once per run, before the faults, the merchant issues two cards the way the issuing e2e suites
 * do (a verified cardholder, virtual USD cards on the sandbox SHARE product, each recharged with a known
 * amount from the master's issuing balance, topped up by a sandbox deposit if it is short). Then each
 * operation authorizes a small amount on one of the cards, with an idempotency key of its own, and every
 * third reverses it; the rest clear by issuing's clearing job (AUTH_CLEARING_DELAY_MS, short in the chaos
 * stack).
 *
 * A reversal and the clearing job race for the authorization's row and exactly one wins (docs/issuing.md,
 * "Clearing"). When a fault holds a reversal back past the clearing delay, the network's answer is the
 * spec's "Card reversal transaction is error": a true outcome, not a failure of the platform. The step is
 * then marked late, and the invariants check the claim (the authorization had cleared before the refusal,
 * nothing was released).
 */
export const CARD_CURRENCY = 'USD';
/**
 * Two cards, so operations running at once meet on a card's row lock, and a count prime to REVERSE_EVERY,
 * so each card has both reversed and cleared authorizations.
 */
const CARDS_PER_RUN = 2;
const MERCHANT_CATEGORY_CODE = '5942';
/** Every third operation reverses its authorization. */
const REVERSE_EVERY = 3;
/** 1.37 … 5.37: cents that make "to the cent" mean something. */
const MAX_AUTHORIZATION_MINOR = 537n;
/** The spec's refusal of a reversal whose authorization is no longer held (it cleared first). */
export const LATE_REVERSAL_MESSAGE = 'Card reversal transaction is error';

export interface CardAuthorization {
  cardId: string;
  amountMinor: bigint;
  /** The tag the invariants find the authorization by: one per operation, so one per idempotency key. */
  merchantName: string;
  reversePlanned: boolean;
  /** From the acknowledged answer. */
  transactionId?: string;
  status?: string;
  failureReason?: string;
  /**
   * When the reversal was refused as late (the authorization had cleared first): the invariants check that
   * it had indeed cleared before then.
   */
  reversalRefusedAt?: Date;
}

export function planAuthorization(index: number, cards: string[], tag: string): CardAuthorization {
  return {
    cardId: cards[index % cards.length],
    amountMinor: BigInt(137 + (index % 5) * 100),
    merchantName: `CHAOS ${tag}`,
    reversePlanned: index % REVERSE_EVERY === REVERSE_EVERY - 1,
  };
}

/** The steps the card part of an operation plans (a reversal only for every third). */
export function cardStepsOf(authorization: CardAuthorization): StepOutcome['step'][] {
  return authorization.reversePlanned ? ['authorize', 'reverse'] : ['authorize'];
}

/** Authorize, then (when planned and approved) reverse; each step retried with its own key. */
export async function runCardSteps(
  client: ChaosClient,
  authorization: CardAuthorization,
  steps: StepOutcome[],
  deadlineMs: number,
): Promise<void> {
  const authorized = await client.step(
    'authorize',
    'POST',
    '/v1/simulation/issuing/authorization',
    {
      card_id: authorization.cardId,
      transaction_amount: toMajor(authorization.amountMinor),
      transaction_currency: CARD_CURRENCY,
      merchant_name: authorization.merchantName,
      merchant_category_code: MERCHANT_CATEGORY_CODE,
      transaction_status: 'APPROVED',
    },
    deadlineMs,
  );
  steps.push(authorized.outcome);
  if (!authorized.outcome.acknowledged || !authorized.answer) return;
  authorization.transactionId = String(authorized.answer.body.transaction_id);
  authorization.status = String(authorized.answer.body.transaction_status);
  if (typeof authorized.answer.body.failure_reason === 'string')
    authorization.failureReason = authorized.answer.body.failure_reason;
  if (!authorization.reversePlanned || authorization.status !== 'APPROVED') return;
  const reversed = await client.step(
    'reverse',
    'POST',
    '/v1/simulation/issuing/reversal',
    { transaction_id: authorization.transactionId },
    deadlineMs,
  );
  if (reversed.answer?.status === 400 && reversed.answer.body.message === LATE_REVERSAL_MESSAGE) {
    authorization.reversalRefusedAt = new Date();
    reversed.outcome.late = 'the authorization had cleared first';
  }
  steps.push(reversed.outcome);
}

/** What the run's cards hold before the faults: each recharged with `rechargeMinor`. */
export interface ChaosCards {
  cardIds: string[];
  rechargeMinor: bigint;
}

/**
 * Issues the run's cards, each recharged with enough for every authorization the run can make on it
 * (so no authorization is declined for money, and a decline is a finding).
 */
export async function issueChaosCards(
  client: ChaosClient,
  plan: { operations: number; faults: number },
  deadlineMs: number,
): Promise<ChaosCards> {
  // Operations take the cards in turn, so a card has at most ceil(operations / cards) of each fault's.
  const perCard = BigInt(Math.ceil(plan.operations / CARDS_PER_RUN) * plan.faults);
  const rechargeMinor = perCard * MAX_AUTHORIZATION_MINOR + 1_000n;
  await fundIssuingBalance(client, rechargeMinor * BigInt(CARDS_PER_RUN), deadlineMs);
  const cardholderId = await verifiedCardholder(client, deadlineMs);
  const productId = await shareProduct(client, deadlineMs);
  const cardIds: string[] = [];
  for (let card = 0; card < CARDS_PER_RUN; card += 1) {
    const cardId = await activeCard(client, cardholderId, productId, deadlineMs);
    await recharge(client, cardId, rechargeMinor, deadlineMs);
    const balance = await cardBalance(client, cardId, deadlineMs);
    if (balance !== rechargeMinor)
      throw new Error(`card ${cardId} holds ${balance} minor after a recharge of ${rechargeMinor}`);
    cardIds.push(cardId);
  }
  return { cardIds, rechargeMinor };
}

/** A card's available balance in minor units, as the API shows it (undefined when it cannot be read). */
export async function cardBalance(
  client: ChaosClient,
  cardId: string,
  deadlineMs: number,
): Promise<bigint | undefined> {
  const card = await client.readUntil(`/v1/issuing/cards/${cardId}`, () => true, deadlineMs);
  return card === undefined ? undefined : minorOf(card.available_balance);
}

/** The sandbox seed funds USD; a deposit tops the master's issuing balance up when it is short. */
async function fundIssuingBalance(client: ChaosClient, neededMinor: bigint, deadlineMs: number) {
  const balance = await setupPost(client, '/v1/issuing/balances', { currency: CARD_CURRENCY }, deadlineMs);
  const shortMinor = neededMinor - minorOf(balance.available_balance);
  if (shortMinor <= 0n) return;
  await setupPost(
    client,
    '/v1/simulation/deposit',
    {
      amount: toMajor(shortMinor),
      currency: CARD_CURRENCY,
      sender_swift_code: 'DBSSSGSG',
      sender_name: 'Chaos Funding',
      sender_country: 'SG',
    },
    deadlineMs,
  );
}

function verifiedCardholder(client: ChaosClient, deadlineMs: number): Promise<string> {
  return createUntil(
    client,
    { path: '/v1/issuing/cardholders', body: cardholderBody(), idField: 'cardholder_id' },
    (cardholder) => cardholder.cardholder_status === 'SUCCESS',
    deadlineMs,
  );
}

async function shareProduct(client: ChaosClient, deadlineMs: number): Promise<string> {
  const isShare = (product: Record<string, unknown>) =>
    product.card_bin === SANDBOX_POOL_BIN && product.product_status === 'ENABLED';
  const page = await setupRead(
    client,
    '/v1/issuing/products?page_size=10&page_number=1',
    (products) => (products.data as Record<string, unknown>[]).some(isShare),
    'the sandbox SHARE product',
    deadlineMs,
  );
  return String((page.data as Record<string, unknown>[]).find(isShare)?.product_id);
}

function activeCard(client: ChaosClient, cardholderId: string, productId: string, deadlineMs: number) {
  return createUntil(
    client,
    {
      path: '/v1/issuing/cards',
      body: { card_currency: CARD_CURRENCY, cardholder_id: cardholderId, card_product_id: productId },
      idField: 'card_id',
    },
    (card) => card.card_status === 'ACTIVE',
    deadlineMs,
  );
}

/** Creates an object (POST `path`), then reads it (GET `path/<id>`) until `ready`: its id. */
async function createUntil(
  client: ChaosClient,
  create: { path: string; body: unknown; idField: string },
  ready: (body: Record<string, unknown>) => boolean,
  deadlineMs: number,
): Promise<string> {
  const created = await setupPost(client, create.path, create.body, deadlineMs);
  const id = String(created[create.idField]);
  await setupRead(client, `${create.path}/${id}`, ready, `${create.path}/${id} ready`, deadlineMs);
  return id;
}

async function recharge(client: ChaosClient, cardId: string, amountMinor: bigint, deadlineMs: number) {
  const order = await setupPost(
    client,
    `/v1/issuing/cards/${cardId}/recharge`,
    { amount: toMajor(amountMinor) },
    deadlineMs,
  );
  const finished = await setupRead(
    client,
    `/v1/issuing/card_orders/${String(order.card_order_id)}`,
    (current) => current.order_status === 'SUCCESS' || current.order_status === 'FAILED',
    `the recharge of card ${cardId}`,
    deadlineMs,
  );
  if (finished.order_status !== 'SUCCESS') throw new Error(`the recharge of card ${cardId} failed`);
}

async function setupPost(client: ChaosClient, path: string, body: unknown, deadlineMs: number) {
  const { outcome, answer } = await client.post(path, body, deadlineMs);
  if (!outcome.acknowledged || !answer)
    throw new Error(`card setup: POST ${path} ${JSON.stringify(outcome.refusal ?? 'no answer')}`);
  return answer.body;
}

async function setupRead(
  client: ChaosClient,
  path: string,
  accept: (body: Record<string, unknown>) => boolean,
  what: string,
  deadlineMs: number,
): Promise<Record<string, unknown>> {
  const body = await client.readUntil(path, accept, deadlineMs);
  if (!body) throw new Error(`card setup: no ${what} within ${deadlineMs / 1000} s`);
  return body;
}

/** Issuing amounts are JSON numbers of major units with at most two decimals. */
function toMajor(minor: bigint): number {
  return Number(minor) / 100;
}

/** "123.45", 123.45 or 123 → minor units, exactly (through the decimal text, never by multiplying a float). */
export function minorOf(amount: unknown): bigint {
  const [units, cents = ''] = String(amount).split('.');
  return BigInt(units) * 100n + BigInt(cents.padEnd(2, '0').slice(0, 2)) * (units.startsWith('-') ? -1n : 1n);
}
