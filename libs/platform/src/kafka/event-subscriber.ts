import { Consumer, Kafka, KafkaMessage } from 'kafkajs';
import { Logger } from 'pino';
import { DomainEvent, EventFamily, EventFormatError, parseDomainEvent } from '@paygrid/contracts';
import { CORRELATION_HEADER, runWithCorrelation } from '../logging/correlation';
import { Metrics } from '../metrics/metrics';
import { ConsumerHealth } from '../health/consumer-health';
import { SupervisedConsumer } from './supervised-consumer';
import { CONSUMER_DEFAULTS, headerText, RUN_DEFAULTS } from './kafka-factory';
import { traceEventBatch, traceEventHandling } from '../tracing/messaging-spans';
import { KafkaNames } from './kafka-names';
import { ChunkCoalescer } from './chunk-coalescer';

/**
 * Consumes domain event topics with a plain kafkajs consumer, so the commit policy is ours: an
 * offset is committed only after the handler resolved (at most once a second, RUN_DEFAULTS; a failure
 * commits what was resolved before it). A handler failure is retried (kafkajs restarts the consumer from
 * the last committed offset), so an event is never skipped because a database was
 * briefly down; handlers are idempotent through the inbox. A malformed message cannot ever succeed:
 * it is logged and skipped. Each event is handled in a `process <topic>` span continuing its trace. The
 * consumer is supervised (supervised-consumer.ts): a broker outage of any length ends with it consuming
 * again.
 */
export type EventHandler = (event: DomainEvent, topic: string) => Promise<'applied' | 'duplicate'>;

/** Which stack's event topics to read, and the subscriber's consumer group within that stack. */
export interface EventSubscription {
  names: KafkaNames;
  group: string;
  families: EventFamily[];
}

/**
 * How long the broker may hold a fetch to gather more of a topic (kafkajs' `minBytes` and `maxWaitTimeInMs`):
 * for a consumer whose work costs less per message in bigger batches and that nobody waits on at once.
 * Without it a fetch is answered as soon as one message is there (CONSUMER_DEFAULTS).
 */
export interface FetchGather {
  /** The broker answers once this many bytes of the subscription's partitions are there... */
  readonly minBytes: number;
  /** ...or once this long has passed, whichever comes first: the most a message waits for company. */
  readonly maxWaitTimeInMs: number;
}

/**
 * What both subscribers share: the consumer group of the subscription, supervised (readiness down while it
 * does not consume), started and stopped with the app. Subclasses say how messages are handled.
 */
abstract class SupervisedSubscriber {
  private supervisor?: SupervisedConsumer;

  protected constructor(
    protected readonly kafka: Kafka,
    protected readonly subscription: EventSubscription,
    protected readonly logger: Logger,
    protected readonly metrics: Metrics,
    protected readonly fromBeginning: boolean,
    private readonly health: ConsumerHealth | undefined,
    private readonly fetchGather?: FetchGather,
  ) {}

  async start(): Promise<void> {
    const { names, group, families } = this.subscription;
    const health = this.health ?? ConsumerHealth.of(this.kafka) ?? new ConsumerHealth(this.logger);
    const supervisor = health.supervise({
      name: `events:${families.join('+')}`,
      create: () =>
        this.kafka.consumer({ groupId: names.group(group), ...CONSUMER_DEFAULTS, ...this.fetchGather }),
      run: (consumer) => this.consume(consumer, families.map((family) => names.eventTopic(family))),
    });
    await supervisor.start();
    this.supervisor = supervisor;
  }

  protected abstract consume(consumer: Consumer, topics: string[]): Promise<void>;

  /** The message's event; undefined for a malformed one, which can never succeed: logged, counted, skipped. */
  protected parsed(topic: string, message: KafkaMessage): DomainEvent | undefined {
    try {
      return parseDomainEvent(message.value?.toString('utf8') ?? '');
    } catch (error) {
      if (!(error instanceof EventFormatError)) throw error;
      this.metrics.eventsConsumed.inc({ topic, outcome: 'malformed' });
      this.logger.error({ err: error, topic, offset: message.offset }, 'skipping malformed event');
      return undefined;
    }
  }

  async stop(): Promise<void> {
    await this.supervisor?.stop();
    this.supervisor = undefined;
  }
}

export class EventSubscriber extends SupervisedSubscriber {
  constructor(
    kafka: Kafka,
    subscription: EventSubscription,
    private readonly handler: EventHandler,
    logger: Logger,
    metrics: Metrics,
    fromBeginning = true,
    /** Readiness of the app (down while this subscriber does not consume); by default the app's, found by its Kafka client. */
    health?: ConsumerHealth,
  ) {
    super(kafka, subscription, logger, metrics, fromBeginning, health);
  }

  protected async consume(consumer: Consumer, topics: string[]): Promise<void> {
    await consumer.subscribe({ topics, fromBeginning: this.fromBeginning });
    await consumer.run({
      ...RUN_DEFAULTS,
      eachMessage: async ({ topic, message }) => {
        const headers = message.headers as Record<string, unknown> | undefined;
        const correlationId = headerText(headers, CORRELATION_HEADER);
        await traceEventHandling(topic, headers, () => runWithCorrelation(correlationId, async () => {
          const event = this.parsed(topic, message);
          if (event === undefined) return;
          try {
            const outcome = await this.handler(event, topic);
            this.metrics.eventsConsumed.inc({ topic, outcome });
          } catch (error) {
            this.metrics.eventsConsumed.inc({ topic, outcome: 'failed' });
            this.logger.error({ err: error, topic, event_id: event.event_id }, 'event handler failed; will retry');
            throw error;
          }
        }));
      },
    });
  }
}

/**
 * Applies a chunk of a partition's events at once (one transaction per chunk instead of one per event: see
 * payouts' acquiring intake). The handler answers one outcome per event it was given; events are given in
 * offset order and may repeat (a republished event). The offset of a chunk is resolved only after its handler
 * resolved, and committed at most once a second (RUN_DEFAULTS), so a crash re-reads about a second of
 * chunks and the handler's inbox absorbs them; a handler failure retries the chunk from there (kafkajs
 * commits what was resolved before it, then restarts from the last committed offset). Malformed messages
 * are skipped as EventSubscriber skips them. Each chunk is handled in one `process <topic>` span linking the
 * traces of its messages. Chunks of one topic handed over together (a fetch's partitions) are given to the
 * handler in one call, each chunk's events in order (chunk-coalescer.ts): a handler must not assume its
 * events come from one partition.
 */
export type EventBatchHandler = (events: DomainEvent[], topic: string) => Promise<('applied' | 'duplicate')[]>;

export interface EventBatchOptions {
  /** Most events given to the handler at once. */
  readonly chunkSize: number;
  readonly fromBeginning?: boolean;
  readonly health?: ConsumerHealth;
  readonly fetchGather?: FetchGather;
}

export class EventBatchSubscriber extends SupervisedSubscriber {
  private readonly chunkSize: number;
  private readonly chunks: ChunkCoalescer<DomainEvent, 'applied' | 'duplicate'>;

  constructor(
    kafka: Kafka,
    subscription: EventSubscription,
    private readonly handler: EventBatchHandler,
    logger: Logger,
    metrics: Metrics,
    options: EventBatchOptions,
  ) {
    super(
      kafka,
      subscription,
      logger,
      metrics,
      options.fromBeginning ?? true,
      options.health,
      options.fetchGather,
    );
    requirePositiveInteger('chunkSize', options.chunkSize);
    if (options.fetchGather !== undefined) {
      requirePositiveInteger('fetchGather.minBytes', options.fetchGather.minBytes);
      requirePositiveInteger('fetchGather.maxWaitTimeInMs', options.fetchGather.maxWaitTimeInMs);
    }
    this.chunkSize = options.chunkSize;
    this.chunks = new ChunkCoalescer((events, topic) => this.handler(events, topic), {
      maxEvents: options.chunkSize,
      mergedScope: (work) => runWithCorrelation(undefined, work),
    });
  }

  protected async consume(consumer: Consumer, topics: string[]): Promise<void> {
    await consumer.subscribe({ topics, fromBeginning: this.fromBeginning });
    await consumer.run({
      ...RUN_DEFAULTS,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        for (let start = 0; start < batch.messages.length; start += this.chunkSize) {
          if (!isRunning() || isStale()) return;
          const chunk = batch.messages.slice(start, start + this.chunkSize);
          await traceEventBatch(batch.topic, chunk, () => this.handleChunk(batch.topic, chunk));
          resolveOffset(chunk[chunk.length - 1].offset);
          await heartbeat();
        }
      },
    });
  }

  private async handleChunk(topic: string, messages: KafkaMessage[]): Promise<void> {
    const events: DomainEvent[] = [];
    for (const message of messages) {
      const event = this.parsed(topic, message);
      if (event !== undefined) events.push(event);
    }
    if (events.length === 0) return;
    // A chunk of one (the usual case at low load) keeps its message's correlation id in the logs, when it
    // is applied alone (chunk-coalescer.ts).
    const correlationId = messages.length === 1 ? headerText(messages[0].headers as Record<string, unknown> | undefined, CORRELATION_HEADER) : undefined;
    await runWithCorrelation(correlationId, async () => {
      try {
        const outcomes = await this.chunks.submit(events, topic);
        for (const outcome of outcomes) this.metrics.eventsConsumed.inc({ topic, outcome });
      } catch (error) {
        this.metrics.eventsConsumed.inc({ topic, outcome: 'failed' }, events.length);
        this.logger.error({ err: error, topic, count: events.length, first_event_id: events[0].event_id }, 'event batch handler failed; will retry');
        throw error;
      }
    });
  }
}

function requirePositiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
}
