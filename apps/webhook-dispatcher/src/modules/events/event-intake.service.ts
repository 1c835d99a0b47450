import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Kafka } from 'kafkajs';
import { Logger } from 'pino';
import { DomainEvent, EventTopics } from '@paygrid/contracts';
import { APP_CONFIG, claimInboxEvent, EventSubscriber, KAFKA, LOGGER, Metrics } from '@paygrid/platform';

/**
 * Event intake: consumes every domain event topic and stores each event exactly once, deduplicated
 * through the inbox in the same transaction as the insert, so Kafka redeliveries and outbox
 * republishing change nothing. The consumer group starts from the earliest offset on first start:
 * a new dispatcher deployment must not miss events published before it joined.
 */
export const INTAKE_CONSUMER = 'webhook-intake';

@Injectable()
export class EventIntakeService implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscriber?: EventSubscriber;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(KAFKA) private readonly kafka: Kafka,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: { KAFKA_GROUP_PREFIX: string },
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscriber = new EventSubscriber(
      this.kafka,
      `${this.config.KAFKA_GROUP_PREFIX}-webhook-intake`,
      Object.values(EventTopics),
      (event, topic) => this.store(event, topic),
      this.logger,
      this.metrics,
    );
    await this.subscriber.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.stop();
  }

  store(event: DomainEvent, topic: string): Promise<'applied' | 'duplicate'> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await claimInboxEvent(manager, INTAKE_CONSUMER, event.event_id))) return 'duplicate';
      await manager.query(
        `INSERT INTO webhook_events
           (event_id, event_name, event_type, source_id, account_id, master_account_id, topic, envelope, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          event.event_id,
          event.event_name,
          event.event_type,
          event.source_id,
          event.account_id,
          event.master_account_id,
          topic,
          JSON.stringify(event),
          event.create_time,
        ],
      );
      return 'applied';
    });
  }
}
