import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Kafka } from 'kafkajs';
import { Logger } from 'pino';
import { DomainEvent } from '@paygrid/contracts';
import { claimInboxEvent, KAFKA, KafkaNames, LOGGER, Metrics, runInTransaction } from '@paygrid/platform';
import { EventListener } from '../../common/event-listener';
import { AcquiringPostings, EventDataError, LEDGER_EVENTS } from './acquiring-postings.service';

/**
 * Money in: consumes acquiring's events and applies each one exactly once (architecture rule 4): the
 * inbox claim and the ledger entry commit in one transaction, so a redelivery (Kafka's at-least-once, the
 * outbox relay republishing after a crash) finds the claim and changes nothing. An offset is committed
 * only after its event's transaction did (EventSubscriber), so a crash replays and never skips.
 */
export const LEDGER_CONSUMER = 'payouts-ledger';

@Injectable()
export class AcquiringEventsListener extends EventListener {
  constructor(
    private readonly dataSource: DataSource,
    private readonly postings: AcquiringPostings,
    @Inject(KAFKA) kafka: Kafka,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: Metrics,
    names: KafkaNames,
  ) {
    super({ kafka, names, logger, metrics }, { group: LEDGER_CONSUMER, families: ['acquiring'] });
  }

  async apply(event: DomainEvent): Promise<'applied' | 'duplicate'> {
    // Most acquiring events move no money: no transaction, no inbox row.
    if (!LEDGER_EVENTS.has(event.event_name)) return 'duplicate';
    try {
      return await runInTransaction(this.dataSource, this.logger, async (tx) => {
        if (!(await claimInboxEvent(tx.manager, LEDGER_CONSUMER, event.event_id))) return 'duplicate';
        await this.postings.apply(tx.manager, event);
        return 'applied';
      });
    } catch (error) {
      if (!(error instanceof EventDataError)) throw error;
      // Retrying cannot make a malformed event whole: say so loudly and move on, as for unparseable ones.
      this.logger.error({ err: error, event_id: event.event_id, event_name: event.event_name }, 'skipping acquiring event the ledger cannot read');
      return 'duplicate';
    }
  }
}
