import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Kafka } from 'kafkajs';
import { Logger } from 'pino';
import { AccountEvents } from '@paygrid/contracts';
import { claimInboxEvent, EventSubscriber, KAFKA, KafkaNames, LOGGER, Metrics } from '@paygrid/platform';
import { ISSUING_CONFIG, IssuingConfig, sandboxSeedEnabled } from '../../config';
import { AccountProvisioning } from './account-provisioning.service';

/**
 * Learns new accounts enabled for issuing from the accounts service (`account.created`) and gives each its issuing catalogue, in
 * one transaction with the inbox claim, so a redelivered event changes nothing. At boot it first provisions the
 * sandbox accounts (when the sandbox seed is on), which the accounts service seeds without events.
 */
const CONSUMER = 'issuing.account-provisioning';

/** Only accounts enabled for issuing (business_code ISSUING) get a catalogue. */
function issuesCards(data: Record<string, unknown>): boolean {
  return Array.isArray(data.business_code) && data.business_code.includes('ISSUING');
}

@Injectable()
export class AccountsEventsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscriber?: EventSubscriber;

  constructor(
    private readonly dataSource: DataSource,
    private readonly provisioning: AccountProvisioning,
    @Inject(KAFKA) private readonly kafka: Kafka,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: Metrics,
    @Inject(ISSUING_CONFIG) private readonly config: IssuingConfig,
    private readonly names: KafkaNames,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (sandboxSeedEnabled(this.config)) await this.provisioning.provisionSandboxAccounts();
    this.subscriber = new EventSubscriber(
      this.kafka,
      { names: this.names, group: 'issuing-accounts', families: ['accounts'] },
      async (event) => {
        if (event.event_name !== AccountEvents.created || !issuesCards(event.data)) return 'duplicate';
        return this.dataSource.transaction(async (manager) => {
          if (!(await claimInboxEvent(manager, CONSUMER, event.event_id))) return 'duplicate';
          await this.provisioning.provision(manager, { accountId: event.account_id, masterAccountId: event.master_account_id }, 'account.created');
          return 'applied';
        });
      },
      this.logger,
      this.metrics,
    );
    await this.subscriber.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.stop();
  }
}
