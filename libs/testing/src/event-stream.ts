import { randomBytes } from 'node:crypto';
import { Consumer, Kafka, Producer } from 'kafkajs';
import { DomainEvent, EventFamily, parseDomainEvent } from '@paygrid/contracts';
import { CONSUMER_DEFAULTS, createProducer, KafkaNames } from '@paygrid/platform';
import { waitFor } from './wait-for';

/**
 * The event topics of one test stack, as a test sees them: a reader that collects everything published
 * on a family's topic since the stack was made (its topics are new, so "from the beginning" is exactly
 * this test's events), and a writer that publishes events as a service's outbox relay would.
 */
export class EventReader {
  private readonly events: DomainEvent[] = [];

  private constructor(private readonly consumer: Consumer) {}

  static async open(kafka: Kafka, names: KafkaNames, family: EventFamily): Promise<EventReader> {
    const consumer = kafka.consumer({
      groupId: names.group(`test-reader-${randomBytes(3).toString('hex')}`),
      ...CONSUMER_DEFAULTS,
    });
    const reader = new EventReader(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic: names.eventTopic(family), fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        reader.events.push(parseDomainEvent(message.value?.toString('utf8') ?? ''));
      },
    });
    return reader;
  }

  /** Events read so far, in topic order per partition; only those matching when given. */
  received(match: (event: DomainEvent) => boolean = () => true): DomainEvent[] {
    return this.events.filter(match);
  }

  /** Waits until at least `count` events match, and returns them. */
  until(
    match: (event: DomainEvent) => boolean,
    {
      count = 1,
      timeoutMs = 15_000,
      what = 'events',
    }: { count?: number; timeoutMs?: number; what?: string } = {},
  ): Promise<DomainEvent[]> {
    return waitFor(
      () => {
        const found = this.received(match);
        return found.length >= count ? found : undefined;
      },
      { timeoutMs, what: `${count} ${what}` },
    );
  }

  close(): Promise<void> {
    return this.consumer.disconnect();
  }
}

export class EventWriter {
  private constructor(
    private readonly producer: Producer,
    private readonly names: KafkaNames,
  ) {}

  static async connect(kafka: Kafka, names: KafkaNames): Promise<EventWriter> {
    const producer = createProducer(kafka);
    await producer.connect();
    return new EventWriter(producer, names);
  }

  /** Publishes events to the family's topic of the stack, keyed by source id like the outbox relay. */
  async publish(events: DomainEvent[], family: EventFamily = 'acquiring'): Promise<void> {
    await this.producer.send({
      topic: this.names.eventTopic(family),
      acks: -1,
      messages: events.map((event) => ({ key: event.source_id, value: JSON.stringify(event) })),
    });
  }

  close(): Promise<void> {
    return this.producer.disconnect();
  }
}
