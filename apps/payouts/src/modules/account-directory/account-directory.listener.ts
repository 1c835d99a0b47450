import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Kafka } from 'kafkajs';
import { Logger } from 'pino';
import { AccountEvents, DomainEvent } from '@paygrid/contracts';
import { KAFKA, KafkaNames, LOGGER, Metrics } from '@paygrid/platform';
import { EventListener } from '../../common/event-listener';
import { AccountDirectoryRepository } from './account-directory.repository';

/**
 * Keeps the account directory current from the accounts service's events (each carries the account as
 * the API returns it). Applying one is an upsert guarded by the event's time, so a redelivered or late
 * event changes nothing and no inbox row is needed.
 */
const ACCOUNT_EVENTS = new Set<string>([AccountEvents.created, AccountEvents.statusUpdated, AccountEvents.verificationUpdated]);

@Injectable()
export class AccountDirectoryListener extends EventListener {
  constructor(
    private readonly dataSource: DataSource,
    private readonly directory: AccountDirectoryRepository,
    @Inject(KAFKA) kafka: Kafka,
    @Inject(LOGGER) logger: Logger,
    metrics: Metrics,
    names: KafkaNames,
  ) {
    super({ kafka, names, logger, metrics }, { group: 'payouts-accounts', families: ['accounts'] });
  }

  async apply(event: DomainEvent): Promise<'applied' | 'duplicate'> {
    if (!ACCOUNT_EVENTS.has(event.event_name)) return 'duplicate';
    const data = event.data as { short_reference_id?: unknown; account_name?: unknown };
    await this.directory.record(this.dataSource, {
      accountId: event.account_id,
      masterAccountId: event.master_account_id,
      shortReferenceId: typeof data.short_reference_id === 'string' && data.short_reference_id !== '' ? data.short_reference_id : null,
      accountName: typeof data.account_name === 'string' ? data.account_name : null,
      observedAt: new Date(event.create_time),
    });
    return 'applied';
  }
}
