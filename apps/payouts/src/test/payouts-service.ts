import { randomBytes, randomUUID } from 'node:crypto';
import { Actor, CommandDefinition, CommandReply, DomainEvent, EventFamily, PayloadOf, ResultOf } from '@paygrid/contracts';
import { aDomainEvent, EventWriter, ServiceHarness, TestDatabase } from '@paygrid/testing';
import { formatAmount } from '@paygrid/money';
import { configSchema } from '../config';
import { PayoutsModule } from '../payouts.module';

/**
 * The payouts app under the shared ServiceHarness (libs/testing). What is particular to payouts: a
 * test-speed bank rail on a job queue of its own, typed commands (the contract's definitions), and acquiring's and accounts'
 * events published on the test stack as their outboxes would.
 */
export type PayoutsService = ServiceHarness<typeof configSchema>;

export const TEST_RAIL_ENV = {
  PAYOUT_PROCESSING_DELAY_MS: '200',
  PAYOUT_SETTLE_DELAY_MS: '200',
  PAYOUT_REFUND_DELAY_MS: '200',
  JOBS_RECONCILE_INTERVAL_MS: '200',
  // A step whose worker died reruns after this; short, so a restart test does not wait a minute.
  JOBS_LEASE_MS: '2000',
};

export function startPayouts(options: { env?: Record<string, string>; database?: TestDatabase } = {}): Promise<PayoutsService> {
  return ServiceHarness.start({
    app: 'payouts',
    configSchema,
    module: (config) => PayoutsModule.register(config),
    env: { ...TEST_RAIL_ENV, JOBS_PREFIX: `po-it-${randomBytes(4).toString('hex')}`, ...options.env },
    database: options.database,
    redisPrefixes: (config) => [config.JOBS_PREFIX],
  });
}

/** A command as the gateway sends it (a fresh command id for a mutating one unless given); the raw reply. */
export function execute<C extends CommandDefinition>(
  service: PayoutsService,
  definition: C,
  payload: PayloadOf<C> | Record<string, unknown>,
  actor: Actor | null,
  commandId: string | null = definition.mutates ? `cmd_${randomUUID()}` : null,
): Promise<CommandReply<ResultOf<C>>> {
  return service.send<ResultOf<C>>(definition.type, payload, { actor, commandId });
}

/** Publishes events on the service's stack, as acquiring's or accounts' outbox relay would. */
export async function publish(service: PayoutsService, family: EventFamily, events: DomainEvent[]): Promise<void> {
  writers.set(service, writers.get(service) ?? (await service.stack.eventWriter()));
  await (writers.get(service) as EventWriter).publish(events, family);
}
const writers = new WeakMap<PayoutsService, EventWriter>();

/** account.created as the accounts service publishes it (data: the account as the API returns it). */
export function accountCreated(accountId: string, shortReferenceId: string, accountName: string): DomainEvent {
  return aDomainEvent({
    event_name: 'account.created',
    event_type: 'ONBOARDING',
    source_id: accountId,
    account_id: accountId,
    data: { account_id: accountId, short_reference_id: shortReferenceId, account_name: accountName },
  });
}

/** The acquiring events the ledger reads, shaped as acquiring's presenters shape them. */
export const acquiringEvents = {
  captured(accountId: string, attemptId: string, amount: string, currency = 'USD'): DomainEvent {
    return aDomainEvent({
      event_name: 'acquiring.payment_attempt.capture_requested',
      source_id: attemptId,
      account_id: accountId,
      data: { attempt_id: attemptId, payment_intent_id: `pi_${attemptId}`, amount, captured_amount: amount, currency, attempt_status: 'CAPTURE_REQUESTED' },
    });
  },
  settled(accountId: string, attemptId: string, amountMinor: bigint, currency = 'USD'): DomainEvent {
    const settlementId = `stl_${randomBytes(6).toString('hex')}`;
    return aDomainEvent({
      event_name: 'acquiring.settlement.succeeded',
      source_id: settlementId,
      account_id: accountId,
      data: {
        settlement_id: settlementId,
        settlement_batch_id: 'stb_1',
        payment_intent_id: `pi_${attemptId}`,
        payment_attempt_id: attemptId,
        currency,
        amount: formatAmount(amountMinor, currency),
        fee_amount: formatAmount(0n, currency),
        net_amount: formatAmount(amountMinor, currency),
        settlement_status: 'SUCCEEDED',
        settled_time: new Date().toISOString(),
      },
    });
  },
  refund(name: 'created' | 'succeeded' | 'failed', accountId: string, refundId: string, amountMinor: bigint, currency = 'USD'): DomainEvent {
    const status = { created: 'INITIATED', succeeded: 'SUCCEEDED', failed: 'FAILED' }[name];
    return aDomainEvent({
      event_name: `acquiring.refund.${name}`,
      source_id: refundId,
      account_id: accountId,
      data: {
        payment_refund_id: refundId,
        payment_intent_id: 'pi_refunded',
        payment_attempt_id: 'att_refunded',
        amount: formatAmount(amountMinor, currency),
        currency,
        refund_status: status,
      },
    });
  },
};
