import { Consumer, Kafka } from 'kafkajs';
import { Logger } from 'pino';
import { DomainEvent, EventFamily, EventFormatError, parseDomainEvent } from '@paygrid/contracts';
import { CORRELATION_HEADER, runWithCorrelation } from '../logging/correlation';
import { Metrics } from '../metrics/metrics';
import { ConsumerHealth } from '../health/consumer-health';
import { SupervisedConsumer } from './supervised-consumer';
import { CONSUMER_DEFAULTS, headerText } from './kafka-factory';
import { traceEventHandling } from '../tracing/messaging-spans';
import { KafkaNames } from './kafka-names';

/**
 * Consumes domain event topics with a plain kafkajs consumer, so the commit policy is ours: an
 * offset is committed only after the handler resolved. A handler failure is retried (kafkajs restarts
 * the consumer from the last committed offset), so an event is never skipped because a database was
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

export class EventSubscriber {
  private supervisor?: SupervisedConsumer;

  constructor(
    private readonly kafka: Kafka,
    private readonly subscription: EventSubscription,
    private readonly handler: EventHandler,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
    private readonly fromBeginning = true,
    /** Readiness of the app (down while this subscriber does not consume); by default the app's, found by its Kafka client. */
    private readonly health?: ConsumerHealth,
  ) {}

  async start(): Promise<void> {
    const { names, group, families } = this.subscription;
    const health = this.health ?? ConsumerHealth.of(this.kafka) ?? new ConsumerHealth(this.logger);
    const supervisor = health.supervise({
      name: `events:${families.join('+')}`,
      create: () => this.kafka.consumer({ groupId: names.group(group), ...CONSUMER_DEFAULTS }),
      run: (consumer) => this.consume(consumer, families.map((family) => names.eventTopic(family))),
    });
    await supervisor.start();
    this.supervisor = supervisor;
  }

  private async consume(consumer: Consumer, topics: string[]): Promise<void> {
    await consumer.subscribe({ topics, fromBeginning: this.fromBeginning });
    await consumer.run({
      partitionsConsumedConcurrently: 3,
      eachMessage: async ({ topic, message }) => {
        const headers = message.headers as Record<string, unknown> | undefined;
        const correlationId = headerText(headers, CORRELATION_HEADER);
        await traceEventHandling(topic, headers, () => runWithCorrelation(correlationId, async () => {
          let event: DomainEvent;
          try {
            event = parseDomainEvent(message.value?.toString('utf8') ?? '');
          } catch (error) {
            if (!(error instanceof EventFormatError)) throw error;
            this.metrics.eventsConsumed.inc({ topic, outcome: 'malformed' });
            this.logger.error({ err: error, topic, offset: message.offset }, 'skipping malformed event');
            return;
          }
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

  async stop(): Promise<void> {
    await this.supervisor?.stop();
    this.supervisor = undefined;
  }
}
