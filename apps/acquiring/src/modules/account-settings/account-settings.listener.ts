import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Kafka } from 'kafkajs';
import { Logger } from 'pino';
import { AccountEvents, DomainEvent } from '@paygrid/contracts';
import { EventSubscriber, KAFKA, KafkaNames, LOGGER, Metrics } from '@paygrid/platform';
import { AccountSettingsRepository } from './account-settings.repository';
import { settingsOf } from './account-settings.types';

/**
 * Learns each account's capture window from the accounts service (account.settings.updated, decisions §7)
 * into account_settings, which CaptureWindow reads. Idempotent without an inbox: the write keeps the
 * highest settings_version, so a redelivered or late event changes nothing. Other account events are not
 * this consumer's business. From the earliest offset, so a new deployment learns every setting there is.
 */
export const ACCOUNT_SETTINGS_CONSUMER = 'acquiring-account-settings';

@Injectable()
export class AccountSettingsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscriber?: EventSubscriber;

  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: AccountSettingsRepository,
    @Inject(KAFKA) private readonly kafka: Kafka,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: Metrics,
    private readonly names: KafkaNames,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscriber = new EventSubscriber(
      this.kafka,
      { names: this.names, group: ACCOUNT_SETTINGS_CONSUMER, families: ['accounts'] },
      (event) => this.apply(event),
      this.logger,
      this.metrics,
    );
    await this.subscriber.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.stop();
  }

  async apply(event: DomainEvent): Promise<'applied' | 'duplicate'> {
    if (event.event_name !== AccountEvents.settingsUpdated) return 'duplicate';
    const settings = settingsOf(event.data);
    if (!settings) {
      this.logger.error({ event_id: event.event_id }, 'skipping account.settings.updated this version cannot read');
      return 'duplicate';
    }
    return (await this.settings.keepNewest(this.dataSource, settings)) ? 'applied' : 'duplicate';
  }
}
