export { actorOf, refusalOf, resultOf } from '@paygrid/testing';
import { randomBytes } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { Actor, CommandDefinition, CommandReply, PayloadOf, ResultOf, SANDBOX_SEED_DEFAULTS } from '@paygrid/contracts';
import { ServiceHarness } from '@paygrid/testing';
import { configSchema, IssuingConfig } from '../config';
import { IssuingModule } from '../issuing.module';

/**
 * The issuing app in-process on the shared service harness (libs/testing): a throwaway database, a Kafka stack of
 * its own (commands and events on topics no other test or stack sees), a BullMQ prefix of its own (removed when
 * the app stops), test-speed sandbox delays, decision endpoints on loopback allowed. `send` takes
 * the declared command, so payloads and results are typed as the gateway's are.
 */
export interface IssuingApp {
  app: NestFastifyApplication;
  config: IssuingConfig;
  dataSource: DataSource;
  send<C extends CommandDefinition>(definition: C, payload: PayloadOf<C> | Record<string, unknown>, actor: Actor | null): Promise<CommandReply<ResultOf<C>>>;
  harness: ServiceHarness<typeof configSchema>;
  close(): Promise<void>;
}

export const ISSUING_TEST_ENV = {
  KYC_REVIEW_DELAY_MS: '200',
  CARD_ORDER_DELAY_MS: '100',
  JOBS_RECONCILE_INTERVAL_MS: '200',
  // Decision endpoints on the in-process receiver (127.0.0.1); the guard's own test turns this off.
  ISSUING_DECISION_ALLOW_PRIVATE_URLS: 'true',
};

export async function startIssuingApp(env: Record<string, string> = {}): Promise<IssuingApp> {
  const harness = await ServiceHarness.start({
    app: 'issuing',
    configSchema,
    module: (config) => IssuingModule.register(config),
    env: { ...ISSUING_TEST_ENV, JOBS_PREFIX: `iss-it-${randomBytes(4).toString('hex')}`, ...env },
    redisPrefixes: (config) => [config.JOBS_PREFIX],
  });
  return {
    get app() {
      return harness.app;
    },
    get config() {
      return harness.config;
    },
    get dataSource() {
      return harness.dataSource;
    },
    harness,
    send: (definition, payload, actor) =>
      definition.mutates ? harness.mutate(definition.type, payload, { actor }) : harness.send(definition.type, payload, { actor }),
    close: () => harness.close(),
  };
}

/** The sandbox accounts the app provisions at boot, as actors. */
export const SANDBOX_ACTORS = {
  master: sandboxActor(SANDBOX_SEED_DEFAULTS.master.accountId),
  sub1: sandboxActor(SANDBOX_SEED_DEFAULTS.sub1.accountId),
};

function sandboxActor(accountId: string): Actor {
  return {
    account_id: accountId,
    master_account_id: SANDBOX_SEED_DEFAULTS.master.accountId,
    caller_account_id: accountId,
    client_id: 'cli_it',
    permissions: ['sensitive_card_details'],
  };
}
