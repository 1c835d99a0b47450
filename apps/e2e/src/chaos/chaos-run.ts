import { WebhookReceiver } from '@paygrid/testing';
import { Fault } from './chaos-faults';
import { checkInvariants, OUTBOX_DATABASES, OutboxDatabase } from './chaos-invariants';
import { cardBalance, ChaosCards, issueChaosCards } from './chaos-cards';
import { ChaosClient, driveLoad, LoadOptions, LoadStats, plannedSteps } from './chaos-load';
import { ChaosStack } from './chaos-stack';

/**
 * One chaos run: the chaos stack, the merchant's webhook endpoint on a local receiver and the issued cards
 * the authorizations run on, then for each fault: wait until the platform is healthy, note each card's
 * balance, drive the load, inject the fault once work is flowing, measure how long the platform takes to
 * be healthy again after the fault ended (with nobody touching it), let the load finish with its retries,
 * and check the invariants. One row per fault.
 */
export const HEALTHY_WITHIN_MS = 30_000;
const RECEIVER_PATH = '/chaos';

export interface ChaosRow {
  fault: string;
  sent: number;
  acknowledged: number;
  steps: number;
  errors: string;
  violations: string[];
  /** Steps refused as a true outcome of the fault (a reversal the clearing beat), checked by the invariants. */
  late: string[];
  /** From the end of the fault until every app is ready and the gateway reaches every service. */
  timeToHealthyMs: number | null;
}

export interface ChaosOptions extends LoadOptions {
  say: (line: string) => void;
  /** Processes of every app (default 1). */
  replicas?: number;
}

export async function runChaos(faults: Fault[], options: ChaosOptions): Promise<ChaosRow[]> {
  const stack = await ChaosStack.start(
    { ownBroker: faults.some((fault) => fault.needsOwnBroker), replicas: options.replicas ?? 1 },
    options.say,
  );
  const receiver = await WebhookReceiver.start();
  const rows: ChaosRow[] = [];
  try {
    const endpointId = await subscribe(stack, receiver);
    const cards = await issueCards(stack, { operations: options.operations, faults: faults.length });
    options.say(
      `issued ${cards.cardIds.length} cards, each recharged with ${Number(cards.rechargeMinor) / 100} USD`,
    );
    for (const fault of faults) {
      options.say(`fault: ${fault.name}`);
      const row = await runFault(stack, { receiver, endpointId, cards }, fault, options);
      options.say(`  ${row.violations.length === 0 ? 'ok' : `VIOLATED: ${row.violations.join('; ')}`}`);
      if (row.late.length > 0) options.say(`  late (refused, checked): ${row.late.join('; ')}`);
      rows.push(row);
    }
  } finally {
    await receiver.close();
    await stack.stop();
  }
  return rows;
}

async function subscribe(stack: ChaosStack, receiver: WebhookReceiver): Promise<string> {
  const client = new ChaosClient(stack.apiBases, new LoadStats());
  await client.authenticate(60_000);
  const created = await client.post(
    '/v1/webhooks/endpoints',
    { url: receiver.url(RECEIVER_PATH), event_names: ['acquiring.*', 'payout.*', 'issuing.transaction.*'] },
    60_000,
  );
  if (!created.outcome.acknowledged || !created.answer)
    throw new Error(`no webhook endpoint: ${JSON.stringify(created.outcome.refusal)}`);
  return String(created.answer.body.endpoint_id);
}

/** The cards every fault's authorizations run on, issued once before the faults (chaos-cards.ts). */
async function issueCards(
  stack: ChaosStack,
  plan: { operations: number; faults: number },
): Promise<ChaosCards> {
  const client = new ChaosClient(stack.apiBases, new LoadStats());
  await client.authenticate(60_000);
  return issueChaosCards(client, plan, 60_000);
}

/** What every fault of a run shares: the merchant's endpoint and the issued cards. */
interface RunFixtures {
  receiver: WebhookReceiver;
  endpointId: string;
  cards: ChaosCards;
}

async function runFault(
  stack: ChaosStack,
  { receiver, endpointId, cards }: RunFixtures,
  fault: Fault,
  options: ChaosOptions,
): Promise<ChaosRow> {
  const before = await healthyWithin(stack, 120_000);
  if (!before.ok)
    throw new Error(`the stack is not healthy before "${fault.name}": ${before.reasons.join('; ')}`);
  const outboxFrom = await outboxPositions(stack);
  const stats = new LoadStats();
  const client = new ChaosClient(stack.apiBases, stats);
  await client.authenticate(30_000);
  const cardBalancesBefore = new Map<string, bigint | undefined>();
  for (const cardId of cards.cardIds)
    cardBalancesBefore.set(cardId, await cardBalance(client, cardId, 30_000));

  let flowing!: () => void;
  let finished = false;
  const workFlows = new Promise<void>((resolve) => (flowing = resolve));
  const load = driveLoad(
    client,
    options,
    cards.cardIds,
    (done) => done >= Math.min(2, options.operations) && flowing(),
  ).finally(() => (finished = true));
  await workFlows;
  const faultViolations =
    (await fault.inject({
      stack,
      receiver,
      load: { acknowledged: () => stats.acknowledged, finished: () => finished },
    })) ?? [];
  const faultEnded = Date.now();
  // Still unhealthy at the limit: what on-call would see then goes into the violation.
  let unhealthyAtLimit: string[] = [];
  const atLimit = setTimeout(
    () => void stack.unhealthy().then((reasons) => (unhealthyAtLimit = reasons)),
    HEALTHY_WITHIN_MS,
  );
  const healthy = healthyWithin(stack, 120_000).then((outcome) => {
    clearTimeout(atLimit);
    return outcome.ok ? Date.now() - faultEnded : null;
  });
  const operations = await load;
  const timeToHealthyMs = await healthy;

  const violations = await checkInvariants({
    stack,
    receiver,
    receiverPath: RECEIVER_PATH,
    endpointId,
    operations,
    client,
    cardBalancesBefore,
    say: options.say,
    outboxFrom,
    deadlineMs: 90_000,
  });
  violations.unshift(...faultViolations);
  const steps = operations.flatMap((operation) => operation.steps);
  const late = steps.flatMap((step) => (step.late ? [`${step.step} (key ${step.key}): ${step.late}`] : []));
  for (const step of steps.filter((candidate) => !candidate.acknowledged && !candidate.late)) {
    violations.push(
      step.refusal
        ? `${step.step} refused: ${step.refusal.status} ${step.refusal.body}`
        : `${step.step} (key ${step.key}) never succeeded with its retries`,
    );
  }
  const expectedSteps = operations.reduce((count, operation) => count + plannedSteps(operation).length, 0);
  if (steps.length < expectedSteps && violations.length === 0)
    violations.push(`only ${steps.length} of ${expectedSteps} steps ran`);
  if (timeToHealthyMs === null || timeToHealthyMs > HEALTHY_WITHIN_MS) {
    violations.push(
      `not healthy within ${HEALTHY_WITHIN_MS / 1000} s of the fault's end (then: ${unhealthyAtLimit.join('; ') || 'unknown'})`,
    );
  }
  return {
    fault: fault.name,
    sent: stats.sent,
    acknowledged: stats.acknowledged,
    steps: expectedSteps,
    errors: stats.errorsByStatus(),
    violations,
    late,
    timeToHealthyMs,
  };
}

/** Where each service's outbox stands before a fault: its rows from there on belong to the run. */
async function outboxPositions(stack: ChaosStack): Promise<Record<OutboxDatabase, string>> {
  const positions = {} as Record<OutboxDatabase, string>;
  for (const database of OUTBOX_DATABASES) {
    const [{ next }] = await stack.query<{ next: string }>(
      database,
      'SELECT coalesce(max(id), 0) + 1 AS next FROM outbox',
    );
    positions[database] = next;
  }
  return positions;
}

/** Polls until healthy; the reasons last seen when it is not within `timeoutMs`. */
async function healthyWithin(
  stack: ChaosStack,
  timeoutMs: number,
): Promise<{ ok: true } | { ok: false; reasons: string[] }> {
  const deadline = Date.now() + timeoutMs;
  let reasons: string[] = [];
  while (Date.now() <= deadline) {
    reasons = await stack.unhealthy();
    if (reasons.length === 0) return { ok: true };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { ok: false, reasons };
}

/**
 * The table: fault, sent, acknowledged (and how many of the rest were refused as late: reversals the
 * clearing beat), errors by status, invariant, time to healthy.
 */
export function chaosTable(rows: ChaosRow[]): string {
  const header = ['fault', 'sent', 'acknowledged', 'errors by status', 'invariant', 'time to healthy'];
  const lines = rows.map((row) => [
    row.fault,
    String(row.sent),
    `${row.acknowledged}/${row.steps}${row.late.length > 0 ? ` (${row.late.length} late)` : ''}`,
    row.errors,
    row.violations.length === 0 ? 'ok' : `VIOLATED (${row.violations.length})`,
    row.timeToHealthyMs === null ? 'never' : `${(row.timeToHealthyMs / 1000).toFixed(1)} s`,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column].length)),
  );
  const format = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [
    format(header),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...lines.map(format),
  ].join('\n');
}

export function violationsOf(rows: ChaosRow[]): string[] {
  return rows.flatMap((row) => row.violations.map((violation) => `${row.fault}: ${violation}`));
}
