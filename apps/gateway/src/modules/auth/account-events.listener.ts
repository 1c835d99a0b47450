import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { hostname } from 'node:os';
import { Kafka } from 'kafkajs';
import { Logger } from 'pino';
import { AccountEvents } from '@paygrid/contracts';
import { EventSubscriber, KAFKA, KafkaNames, LOGGER, Metrics } from '@paygrid/platform';
import { OnBehalfOfResolver } from './on-behalf-of.resolver';

/**
 * Keeps the on-behalf-of cache honest: when an account's status changes, every gateway instance
 * drops its cached grants for it. Each instance has its own consumer group because each holds its
 * own cache; it starts from the latest offset since older changes are covered by the cache TTL.
 */
const EVICTING_EVENTS = new Set<string>([AccountEvents.statusUpdated, AccountEvents.verificationUpdated]);

@Injectable()
export class AccountEventsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscriber?: EventSubscriber;

  constructor(
    @Inject(KAFKA) private readonly kafka: Kafka,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: Metrics,
    private readonly resolver: OnBehalfOfResolver,
    private readonly names: KafkaNames,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscriber = new EventSubscriber(
      this.kafka,
      { names: this.names, group: `gateway-cache-${hostname()}-${process.pid}`, families: ['accounts'] },
      async (event) => {
        if (!EVICTING_EVENTS.has(event.event_name)) return 'duplicate';
        this.resolver.evict(event.source_id);
        return 'applied';
      },
      this.logger,
      this.metrics,
      false,
    );
    await this.subscriber.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.stop();
  }
}
