import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { Actor, CommandDefinition, CommandFamily, PayloadOf, PING_COMMAND, ResultOf } from '@paygrid/contracts';
import { ApiError, CommandBus, DEFAULT_KAFKA_PREFIX, KafkaNames, Metrics } from '@paygrid/platform';
import { ConnectedBus } from './cli';
import { CliFailure } from './commands/registry';

/**
 * The CLI's connection to a running stack (the one named by KAFKA_PREFIX on the broker): a CommandBus
 * with a consumer group of its own per run (so replies come back to this process only), bounded by
 * PAYGRID_CLI_TIMEOUT_MS at every step, so a stack that is down gives a clear message instead of a hang.
 */
export interface CliBusOptions {
  brokers: string[];
  kafkaPrefix: string;
  timeoutMs: number;
  logLevel: string;
}

export function cliBusOptions(env: NodeJS.ProcessEnv): CliBusOptions {
  const timeoutMs = Number(env.PAYGRID_CLI_TIMEOUT_MS ?? 15_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100) throw new CliFailure('PAYGRID_CLI_TIMEOUT_MS must be an integer >= 100');
  const brokers = (env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',').map((broker) => broker.trim()).filter(Boolean);
  return { brokers, kafkaPrefix: env.KAFKA_PREFIX || DEFAULT_KAFKA_PREFIX, timeoutMs, logLevel: env.PAYGRID_CLI_LOG_LEVEL ?? 'silent' };
}

/** One ping attempt waits this long: a ping sent before the reply consumer is fetching is lost. */
const PING_ATTEMPT_MS = 2000;

export async function connectCliBus(options: CliBusOptions): Promise<ConnectedBus> {
  // Logs go to stderr so that stdout holds only the command's output.
  const logger = pino({ level: options.logLevel, base: { app: 'paygrid-cli' } }, pino.destination(2));
  let names: KafkaNames;
  try {
    names = new KafkaNames(options.kafkaPrefix);
  } catch (error) {
    throw new CliFailure(`KAFKA_PREFIX: ${(error as Error).message}`);
  }
  const group = `cli-${process.pid}-${randomBytes(3).toString('hex')}`;
  const bus = new CommandBus(
    { clientId: 'paygrid-cli', brokers: options.brokers, names, group, timeoutMs: options.timeoutMs },
    logger,
    new Metrics('paygrid-cli'),
  );
  const where = options.brokers.join(',');
  await withDeadline(bus.connect(), options.timeoutMs, () => {
    void bus.close().catch(() => undefined);
    return new CliFailure(`no Kafka broker answered at ${where} within ${options.timeoutMs} ms; is the stack running (npm start)?`);
  });

  return {
    async execute<C extends CommandDefinition>(
      definition: C,
      payload: PayloadOf<C>,
      sendOptions: { commandId?: string; actor?: Actor } = {},
    ): Promise<ResultOf<C>> {
      try {
        return await bus.execute(definition, payload, { actor: sendOptions.actor ?? null, commandId: sendOptions.commandId ?? null });
      } catch (error) {
        if (error instanceof ApiError && error.status === 500 && /did not answer/.test(error.body.message)) {
          throw new CliFailure(
            `the ${definition.family} service did not answer ${definition.type} within ${options.timeoutMs} ms; is it running?`,
          );
        }
        throw error;
      }
    },
    async ready(family: CommandFamily): Promise<void> {
      const deadline = Date.now() + options.timeoutMs;
      while (Date.now() < deadline) {
        const attemptMs = Math.max(100, Math.min(PING_ATTEMPT_MS, deadline - Date.now()));
        const reply = await bus.request(family, PING_COMMAND, {}, { actor: null, timeoutMs: attemptMs }).catch(() => undefined);
        if (reply?.ok) return;
      }
      throw new CliFailure(
        `the ${family} service of stack ${names.prefix} did not answer within ${options.timeoutMs} ms (Kafka at ${where}); is it running?`,
      );
    },
    close: () => bus.close(),
  };
}

function withDeadline<T>(work: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), timeoutMs);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
