import { Kafka, logLevel as KafkaLogLevel, LogEntry, Partitioners, Producer, ProducerConfig } from 'kafkajs';
import { KafkaOptions, Transport } from '@nestjs/microservices';
import { Logger } from 'pino';

/**
 * One place for kafkajs settings (see docs/kafka-local.md for why each value): fast group joins on a
 * single broker, no topic auto-creation (topics are declared in libs/contracts and created up front),
 * and kafkajs' own logs routed into pino at warn level and above.
 */
const RETRY = { initialRetryTime: 100, retries: 8 };

export const CONSUMER_DEFAULTS = {
  sessionTimeout: 6000,
  heartbeatInterval: 1000,
  rebalanceTimeout: 10000,
  // A fetch is a long poll: the broker answers as soon as a message arrives, so this bounds only how
  // often an idle consumer asks again (and how long disconnect() waits for the fetch in flight). At
  // 100 ms the stack's idle consumers burned ~44% of a core here (bench `stack_idle`); at 500 ms ~24%.
  maxWaitTimeInMs: 500,
  allowAutoTopicCreation: false,
};

/**
 * What every consumer's `run` gets. Offsets are committed at most once a second per consumer (on an idle
 * partition's next poll once the second is up, at a clean stop, and before a rebalance hands a partition
 * over), not after every batch: kafkajs 2.2.4 committed after each batch whatever the interval said, ~4
 * OffsetCommit round trips per create-intent across the stack (patches/kafkajs+2.2.4.patch, docs/platform.md).
 * What a crash re-reads grows to about a second of messages; every consumer dedupes (inbox, command
 * ledger, stray replies match nothing), so that costs work, never a second effect.
 */
export const OFFSET_COMMIT_INTERVAL_MS = 1000;
export const RUN_DEFAULTS = { partitionsConsumedConcurrently: 3, autoCommitInterval: OFFSET_COMMIT_INTERVAL_MS };

function pinoLogCreator(logger: Logger) {
  return () =>
    ({ level, log }: LogEntry) => {
      const { message, ...extra } = log;
      if (level <= KafkaLogLevel.ERROR) logger.error({ kafka: extra }, `kafka: ${message}`);
      else if (level === KafkaLogLevel.WARN) logger.warn({ kafka: extra }, `kafka: ${message}`);
    };
}

export function createKafka(clientId: string, brokers: string[], logger: Logger): Kafka {
  return new Kafka({
    clientId,
    brokers,
    retry: RETRY,
    logLevel: KafkaLogLevel.WARN,
    logCreator: pinoLogCreator(logger),
  });
}

export function createProducer(kafka: Kafka, config: ProducerConfig = {}): Producer {
  return kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
    // One request in flight keeps per-partition order across retries. Not kafkajs' idempotent mode:
    // delivery is at-least-once by design and consumers dedupe by event id (architecture rule 4).
    maxInFlightRequests: 1,
    ...config,
  });
}

/** Nest Kafka transport options; Nest appends `-server`/`-client` to the group id. */
export function nestKafkaOptions(app: string, brokers: string[], groupId: string, logger: Logger): KafkaOptions {
  return {
    transport: Transport.KAFKA,
    options: {
      client: {
        clientId: app,
        brokers,
        retry: RETRY,
        logLevel: KafkaLogLevel.WARN,
        logCreator: pinoLogCreator(logger),
      },
      consumer: { groupId, ...CONSUMER_DEFAULTS },
      producer: { createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false },
      run: { ...RUN_DEFAULTS },
      // kafkajs resolves "latest" for a new group only after the join, so a new group starting at the
      // end can skip the first messages (seen: a service's first commands, a gateway's first replies).
      // Reading from the start is safe: stale commands are dropped (command-dispatcher.ts) and stray
      // replies match no pending request.
      subscribe: { fromBeginning: true },
    },
  };
}

/** kafkajs headers arrive as Buffers (or arrays of them); read one as text. */
export function headerText(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === null) return undefined;
  return Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
}
