import { cardBalance } from './chaos-cards';
import type { ChaosClient, Operation } from './chaos-load';
import type { ChaosStack } from './chaos-stack';
import { CHAOS_AUTH_CLEARING_DELAY_MS } from './chaos-stack';

/**
 * The card authorizations' part of the chaos invariants (chaos-invariants.ts runs them after each fault),
 * read from the issuing database and, for balances, through the gateway as a client reads them:
 * - one effect per key: each operation's authorization (found by its merchant name, one per key) is stored
 *   at most once, exactly once when acknowledged, with the acknowledged id, status and amount: an
 *   acknowledged APPROVED authorization never disappears; none is declined (the load stays within the
 *   cards' money and controls);
 * - a reversal is applied exactly once when acknowledged, never when not; one refused as late (the
 *   clearing job beat it) found its authorization already CLEARED, and released nothing;
 * - nothing stuck: every approved authorization that was not reversed clears (issuing's clearing job) soon
 *   after its clearing delay;
 * - to the cent: each card's available balance is what it was before the fault, minus the authorizations
 *   acknowledged APPROVED, plus the reversals acknowledged;
 * - the ledger per authorization: its hold entry, a release entry exactly when REVERSED, a clearing entry
 *   exactly when CLEARED, and each card's held bucket equal to its authorizations still HELD. (`ledger
 *   verify` audits the issuing ledger as a whole, not each authorization against its entries.)
 */
const ISSUING = 'paygrid_issuing';

export interface CardInvariantInput {
  stack: ChaosStack;
  client: ChaosClient;
  operations: Operation[];
  /** Each card's available balance (minor units) before the fault's load, as the API showed it. */
  balancesBefore: Map<string, bigint | undefined>;
}

interface AuthorizationRow {
  merchant_name: string;
  transaction_id: string;
  transaction_status: string;
  hold_state: string | null;
  billing_amount_minor: string;
  posted_time: Date | null;
}

/** Checks that need no waiting: what each acknowledged (or refused) step left in the issuing database. */
export async function authorizationsPerKey({ stack, operations }: CardInvariantInput): Promise<string[]> {
  const rows = await stack.query<AuthorizationRow>(
    ISSUING,
    `SELECT merchant_name, transaction_id::text, transaction_status, hold_state, billing_amount_minor::text, posted_time
       FROM card_transactions WHERE transaction_type = 'AUTHORIZATION' AND merchant_name = ANY($1)`,
    [operations.map((operation) => operation.card.merchantName)],
  );
  const byTag = new Map<string, AuthorizationRow[]>();
  for (const row of rows) byTag.set(row.merchant_name, [...(byTag.get(row.merchant_name) ?? []), row]);
  const reversals = await reversalCounts(
    stack,
    rows.map((row) => row.transaction_id),
  );
  const violations: string[] = [];
  for (const operation of operations) {
    const { card } = operation;
    const stored = byTag.get(card.merchantName) ?? [];
    const authorize = operation.steps.find((step) => step.step === 'authorize');
    const order = operation.merchantOrderId;
    if (stored.length > 1) violations.push(`${stored.length} authorizations for one key (order ${order})`);
    if (authorize?.acknowledged && stored.length !== 1)
      violations.push(`acknowledged authorization of order ${order} stored ${stored.length} times`);
    if (card.status === 'DECLINED')
      violations.push(`authorization of order ${order} declined: ${card.failureReason}`);
    const [row] = stored;
    if (authorize?.acknowledged && row) violations.push(...asAcknowledged(order, card, row));
    for (const each of stored)
      violations.push(...reversalOf(operation, each, reversals.get(each.transaction_id) ?? 0));
  }
  return violations;
}

function asAcknowledged(order: string, card: Operation['card'], row: AuthorizationRow): string[] {
  const stored = {
    id: row.transaction_id,
    status: row.transaction_status,
    amount: BigInt(row.billing_amount_minor),
  };
  const acknowledged = { id: card.transactionId, status: card.status, amount: card.amountMinor };
  if (
    stored.id === acknowledged.id &&
    stored.status === acknowledged.status &&
    stored.amount === acknowledged.amount
  )
    return [];
  return [
    `authorization of order ${order} acknowledged as ${acknowledged.id} ${acknowledged.status} ${acknowledged.amount}, ` +
      `stored as ${stored.id} ${stored.status} ${stored.amount}`,
  ];
}

/** Released exactly once when the reversal was acknowledged, never otherwise; a late refusal left it cleared. */
function reversalOf(operation: Operation, row: AuthorizationRow, reversals: number): string[] {
  const reverse = operation.steps.find((step) => step.step === 'reverse');
  const id = row.transaction_id;
  if (reverse?.acknowledged) {
    if (reversals !== 1 || row.hold_state !== 'REVERSED')
      return [
        `acknowledged reversal of ${id} left ${reversals} reversals, the authorization ${row.hold_state}`,
      ];
    return [];
  }
  if (reversals > 0 || row.hold_state === 'REVERSED')
    return [
      `authorization ${id} has ${reversals} reversals (${row.hold_state}) though none was acknowledged`,
    ];
  // Cleared before the refusal came back (one machine's clock): a reversal refused while the authorization
  // was still held would pass a mere "CLEARED now", since the clearing job clears it afterwards.
  const refusedAt = operation.card.reversalRefusedAt;
  if (refusedAt && !(row.hold_state === 'CLEARED' && row.posted_time && row.posted_time < refusedAt))
    return [
      `reversal of ${id} refused as late at ${refusedAt.toISOString()}, but the authorization is ${row.hold_state}` +
        (row.posted_time ? ` since ${row.posted_time.toISOString()}` : ''),
    ];
  return [];
}

async function reversalCounts(stack: ChaosStack, authorizationIds: string[]): Promise<Map<string, number>> {
  const rows = await stack.query<{ original_transaction_id: string; n: number }>(
    ISSUING,
    `SELECT original_transaction_id::text, count(*)::int AS n FROM card_transactions
      WHERE transaction_type = 'REVERSAL' AND original_transaction_id = ANY($1::uuid[]) GROUP BY 1`,
    [authorizationIds],
  );
  return new Map(rows.map((row) => [row.original_transaction_id, row.n]));
}

/** Eventual: no authorization of the run still held (the clearing job runs whichever process holds it). */
export async function authorizationsCleared({ stack, operations }: CardInvariantInput): Promise<string[]> {
  const held = await stack.query<{ transaction_id: string; held_seconds: number }>(
    ISSUING,
    `SELECT transaction_id::text, extract(epoch FROM now() - transaction_time)::int AS held_seconds
       FROM card_transactions WHERE transaction_type = 'AUTHORIZATION' AND hold_state = 'HELD' AND merchant_name = ANY($1)`,
    [operations.map((operation) => operation.card.merchantName)],
  );
  return held.map(
    (row) =>
      `authorization ${row.transaction_id} still HELD ${row.held_seconds} s after its approval ` +
      `(it clears ${CHAOS_AUTH_CLEARING_DELAY_MS / 1000} s after)`,
  );
}

/** Each card's available balance, as the API shows it, to the cent against what was acknowledged. */
export async function cardBalancesAgree({
  client,
  operations,
  balancesBefore,
}: CardInvariantInput): Promise<string[]> {
  const violations: string[] = [];
  for (const [cardId, before] of balancesBefore) {
    let expected = before;
    for (const { card, steps } of operations) {
      if (card.cardId !== cardId || expected === undefined) continue;
      const acknowledged = (name: string) => steps.some((step) => step.step === name && step.acknowledged);
      if (acknowledged('authorize') && card.status === 'APPROVED') expected -= card.amountMinor;
      if (acknowledged('reverse')) expected += card.amountMinor;
    }
    const shown = await cardBalance(client, cardId, 10_000);
    if (expected === undefined || shown === undefined)
      violations.push(`card ${cardId}: its balance could not be read`);
    else if (shown !== expected)
      violations.push(
        `card ${cardId} shows ${minorText(shown)} available; what was acknowledged leaves ${minorText(expected)}`,
      );
  }
  return violations;
}

/** Each approved authorization's entries against its hold state; each card's held bucket against its holds. */
export async function authorizationEntries({
  stack,
  operations,
  balancesBefore,
}: CardInvariantInput): Promise<string[]> {
  const entries = await stack.query<{ transaction_id: string; hold_state: string; steps: string[] }>(
    ISSUING,
    `SELECT t.transaction_id::text, t.hold_state,
            array_remove(array_agg(split_part(e.reference, ':', 3) ORDER BY e.id), NULL) AS steps
       FROM card_transactions t
       LEFT JOIN ledger_entries e ON e.reference IN ('card_transaction:' || t.transaction_id || ':hold',
         'card_transaction:' || t.transaction_id || ':release', 'card_transaction:' || t.transaction_id || ':clear')
      WHERE t.transaction_type = 'AUTHORIZATION' AND t.transaction_status = 'APPROVED' AND t.merchant_name = ANY($1)
      GROUP BY 1, 2`,
    [operations.map((operation) => operation.card.merchantName)],
  );
  const violations: string[] = [];
  for (const row of entries) {
    const expected = [
      'hold',
      ...(row.hold_state === 'REVERSED' ? ['release'] : []),
      ...(row.hold_state === 'CLEARED' ? ['clear'] : []),
    ];
    if (row.steps.join(',') !== expected.join(','))
      violations.push(
        `authorization ${row.transaction_id} (${row.hold_state}) has entries [${row.steps.join(', ')}], expected [${expected.join(', ')}]`,
      );
  }
  const buckets = await stack.query<{ card_id: string; held: string; holds: string }>(
    ISSUING,
    `SELECT c.card_id, coalesce(a.balance, 0)::text AS held,
            (SELECT coalesce(sum(t.billing_amount_minor), 0) FROM card_transactions t
              WHERE t.card_id::text = c.card_id AND t.hold_state = 'HELD')::text AS holds
       FROM unnest($1::text[]) AS c(card_id)
       LEFT JOIN ledger_accounts a ON a.owner_id = c.card_id AND a.bucket = 'authorization_held'`,
    [[...balancesBefore.keys()]],
  );
  for (const bucket of buckets) {
    if (bucket.held !== bucket.holds)
      violations.push(
        `card ${bucket.card_id} holds ${bucket.held} in authorization_held; its HELD authorizations sum to ${bucket.holds}`,
      );
  }
  return violations;
}

function minorText(minor: bigint): string {
  const sign = minor < 0n ? '-' : '';
  const absolute = minor < 0n ? -minor : minor;
  return `${sign}${absolute / 100n}.${String(absolute % 100n).padStart(2, '0')}`;
}
