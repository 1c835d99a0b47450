import { randomBytes, randomUUID } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { Kafka, logLevel, Producer } from 'kafkajs';
import {
  Actor,
  CommandDefinition,
  CommandReply,
  DomainEvent,
  EVENT_ENVELOPE_VERSION,
  PayloadOf,
  ResultOf,
} from '@paygrid/contracts';
import { CommandDispatcher, createHttpApp, loadConfig } from '@paygrid/platform';
import { createTestDatabase, TestDatabase, testBrokers } from '@paygrid/testing';
import { configSchema, PayoutsConfig } from '../config';
import { PayoutsModule } from '../payouts.module';

/**
 * Boots the real payouts app in-process for integration tests: a throwaway database on the real
 * Postgres, the real Kafka broker under its own consumer-group prefix, fed from PRIVATE event topics
 * (created here, deleted by `close`): every stack on the broker publishes to the real ones. Commands
 * go in-process through the app's own CommandDispatcher (what its Kafka controller hands every command
 * to), not over the shared command topic, which any running payouts service would also answer.
 */
export interface PayoutsApp {
  app: NestFastifyApplication;
  config: PayoutsConfig;
  dataSource: DataSource;
  bus: PayoutsTestBus;
  /** Publishes events as acquiring's and accounts' outboxes would, to the app's private topics. */
  publishAcquiring(events: DomainEvent[]): Promise<void>;
  publishAccounts(events: DomainEvent[]): Promise<void>;
  close(): Promise<void>;
}

export function createPayoutsDatabase(): Promise<TestDatabase> {
  return createTestDatabase('paygrid_payouts');
}

export async function startPayoutsApp(database: TestDatabase, env: Record<string, string> = {}): Promise<PayoutsApp> {
  const suffix = randomBytes(4).toString('hex');
  const topics = { acquiringEvents: `paygrid-it-${suffix}.acquiring.events`, accountEvents: `paygrid-it-${suffix}.accounts.events` };
  const kafka = new Kafka({ clientId: `payouts-it-${suffix}`, brokers: testBrokers(), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({
    waitForLeaders: true,
    topics: Object.values(topics).map((topic) => ({ topic, numPartitions: 3, replicationFactor: 1 })),
  });
  const producer: Producer = kafka.producer();
  await producer.connect();
  const config = loadConfig(configSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PORT: String(20000 + Math.floor(Math.random() * 30000)),
    DATABASE_URL: database.url,
    KAFKA_BROKERS: testBrokers().join(','),
    KAFKA_GROUP_PREFIX: `payouts-it-${suffix}`,
    PAYOUT_PROCESSING_DELAY_MS: '200',
    PAYOUT_SETTLE_DELAY_MS: '200',
    PAYOUT_REFUND_DELAY_MS: '200',
    PAYOUT_RAIL_POLL_MS: '50',
    ...env,
  });
  const app = await createHttpApp({
    app: 'payouts',
    module: PayoutsModule.register(config, { topics }),
    config,
    consumesCommands: false,
  });
  await app.init();
  const publish = async (topic: string, events: DomainEvent[]) => {
    await producer.send({ topic, messages: events.map((event) => ({ key: event.source_id, value: JSON.stringify(event) })) });
  };
  return {
    app,
    config,
    dataSource: app.get(DataSource),
    bus: new PayoutsTestBus(app.get(CommandDispatcher)),
    publishAcquiring: (events) => publish(topics.acquiringEvents, events),
    publishAccounts: (events) => publish(topics.accountEvents, events),
    async close() {
      await app.close();
      await producer.disconnect();
      await admin.deleteTopics({ topics: Object.values(topics) }).catch(() => undefined);
      await admin.disconnect();
    },
  };
}

/** Sends commands to the app as its Kafka controller would, through JSON like a real command. */
export class PayoutsTestBus {
  constructor(private readonly dispatcher: CommandDispatcher) {}

  async execute<C extends CommandDefinition>(
    definition: C,
    payload: PayloadOf<C> | Record<string, unknown>,
    actor: Actor | null,
    commandId: string | null = definition.mutates ? `cmd-${randomUUID()}` : null,
  ): Promise<CommandReply<ResultOf<C>>> {
    const envelope = JSON.parse(
      JSON.stringify({ type: definition.type, command_id: commandId, actor, payload, sent_at: new Date().toISOString() }),
    );
    return JSON.parse(JSON.stringify(await this.dispatcher.dispatch(envelope))) as CommandReply<ResultOf<C>>;
  }
}

/** A domain event as a service's outbox would publish it. */
export function domainEvent(fields: {
  event_name: string;
  event_type: DomainEvent['event_type'];
  source_id: string;
  account_id: string;
  master_account_id?: string;
  data: Record<string, unknown>;
}): DomainEvent {
  return {
    event_id: randomUUID(),
    version: EVENT_ENVELOPE_VERSION,
    create_time: new Date().toISOString(),
    master_account_id: fields.account_id,
    ...fields,
  };
}

/** The acquiring events the ledger reads, shaped as acquiring's presenters shape them. */
export const acquiringEvents = {
  captured(accountId: string, attemptId: string, amount: string, currency = 'USD'): DomainEvent {
    return domainEvent({
      event_name: 'acquiring.payment_attempt.capture_requested',
      event_type: 'ACQUIRING',
      source_id: attemptId,
      account_id: accountId,
      data: { attempt_id: attemptId, payment_intent_id: `pi_${attemptId}`, amount, captured_amount: amount, currency, attempt_status: 'CAPTURE_REQUESTED' },
    });
  },
  settled(accountId: string, attemptId: string, amountMinor: bigint, currency = 'USD'): DomainEvent {
    const settlementId = `stl_${randomBytes(6).toString('hex')}`;
    return domainEvent({
      event_name: 'acquiring.settlement.succeeded',
      event_type: 'ACQUIRING',
      source_id: settlementId,
      account_id: accountId,
      data: {
        settlement_id: settlementId,
        settlement_batch_id: 'stb_1',
        payment_intent_id: `pi_${attemptId}`,
        payment_attempt_id: attemptId,
        account_id: accountId,
        currency,
        amount_minor: amountMinor.toString(),
        fee_amount_minor: '0',
        net_amount_minor: amountMinor.toString(),
        settlement_status: 'SUCCEEDED',
        settled_time: new Date().toISOString(),
      },
    });
  },
  refund(name: 'created' | 'succeeded' | 'failed', accountId: string, refundId: string, amountMinor: bigint, currency = 'USD'): DomainEvent {
    return domainEvent({
      event_name: `acquiring.refund.${name}`,
      event_type: 'ACQUIRING',
      source_id: refundId,
      account_id: accountId,
      data: {
        payment_refund_id: refundId,
        payment_intent_id: 'pi_refunded',
        payment_attempt_id: 'att_refunded',
        account_id: accountId,
        amount_minor: amountMinor.toString(),
        fee_amount_minor: '0',
        currency,
        refund_status: name === 'created' ? 'INITIATED' : name === 'succeeded' ? 'SUCCEEDED' : 'FAILED',
      },
    });
  },
};
