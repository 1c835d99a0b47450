import { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { Logger } from 'pino';
import { DomainEvent, EventFamily } from '@paygrid/contracts';
import { EventSubscriber, KafkaNames, Metrics } from '@paygrid/platform';

/**
 * What every event consumer of payouts shares: a platform EventSubscriber on the stack's topics of the
 * given families under a consumer group of its own, started when the app boots (from the earliest
 * offset: a new deployment sees every event that exists) and stopped at shutdown. Subclasses say what
 * applying one event means.
 */
export interface ListenerInfrastructure {
  kafka: Kafka;
  names: KafkaNames;
  logger: Logger;
  metrics: Metrics;
}

export abstract class EventListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscriber?: EventSubscriber;

  protected constructor(
    private readonly infrastructure: ListenerInfrastructure,
    private readonly subscription: { group: string; families: EventFamily[] },
  ) {}

  /** Applies one event exactly once, or recognises it as already applied (or of no interest). */
  abstract apply(event: DomainEvent): Promise<'applied' | 'duplicate'>;

  async onApplicationBootstrap(): Promise<void> {
    const { kafka, names, logger, metrics } = this.infrastructure;
    this.subscriber = new EventSubscriber(kafka, { names, ...this.subscription }, (event) => this.apply(event), logger, metrics);
    await this.subscriber.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.stop();
  }
}
