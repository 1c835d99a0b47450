import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Kafka } from 'kafkajs';
import { Logger } from 'pino';
import { DomainEvent } from '@paygrid/contracts';
import {
  EventBatchSubscriber,
  GENERIC_PLANS,
  KAFKA,
  KafkaNames,
  LOGGER,
  Metrics,
  transactionWithSettings,
} from '@paygrid/platform';
import { AcquiringFact, EventDataError, LEDGER_EVENTS, readFact } from './acquiring-facts';
import { accountSetsOf, AcquiringPostings } from './acquiring-postings.service';
import { claimIntake } from './intake-claim';

/**
 * Money in: consumes acquiring's events a chunk of a partition at a time and applies each event exactly once
 * (architecture rule 4): one transaction per chunk claims the chunk's event ids in the inbox (one statement,
 * which also takes the merchants' intake lock) and posts the entries of the events it claimed (one statement,
 * plus one funds read when a settlement or refund is among them). A redelivery (Kafka's at-least-once, the
 * outbox relay republishing after a crash), or the same event twice in one chunk, finds the claim and changes
 * nothing. An offset is committed only after its chunk's transaction did (EventBatchSubscriber), so a crash
 * replays and never skips.
 *
 * Events that move no money cost no transaction and no inbox row. An event whose data the rules cannot read
 * can never succeed: it is logged and skipped before the transaction, claiming nothing, and the rest of its
 * chunk is applied. Any other failure (the database, a ledger refusal) rolls the chunk back and retries it.
 */
export const LEDGER_CONSUMER = 'payouts-ledger';
/** Events per transaction: enough to absorb a backlog in few commits, few enough to keep the locks short. */
const INTAKE_CHUNK = 100;
/**
 * The broker holds this consumer's fetch until 128 KiB of acquiring's events (about nine creates' five events,
 * ~75 ms at the bench's c16 rate) or 100 ms have gathered: most of the intake's cost is per fetch and per
 * transaction, not per event, and no command waits on a posting. A balance then follows its payments up to a
 * tenth of a second later on a quiet stack (docs/payouts.md, "How fresh a balance is"; measured in
 * docs/performance.md §46).
 */
export const LEDGER_FETCH_GATHER = { minBytes: 128 * 1024, maxWaitTimeInMs: 100 };
type Outcome = 'applied' | 'duplicate';

interface ReadableEvent {
  index: number;
  event: DomainEvent;
  fact: AcquiringFact;
}

@Injectable()
export class AcquiringEventsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscriber?: EventBatchSubscriber;

  constructor(
    private readonly dataSource: DataSource,
    private readonly postings: AcquiringPostings,
    @Inject(KAFKA) private readonly kafka: Kafka,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: Metrics,
    private readonly names: KafkaNames,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscriber = new EventBatchSubscriber(
      this.kafka,
      { names: this.names, group: LEDGER_CONSUMER, families: ['acquiring'] },
      (events) => this.applyAll(events),
      this.logger,
      this.metrics,
      { chunkSize: INTAKE_CHUNK, fetchGather: LEDGER_FETCH_GATHER },
    );
    await this.subscriber.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.stop();
  }

  /** Applies a chunk of events in offset order; one outcome per event. */
  async applyAll(events: readonly DomainEvent[]): Promise<Outcome[]> {
    const readable = this.readFacts(events);
    if (readable.length === 0) return events.map(() => 'duplicate');
    // On generic plans (GENERIC_PLANS): the chunk's statements take their rows as arrays, and on custom plans a
    // chunk of one event re-planned the posting statement each time, 1.6–2.2 ms of backend CPU against
    // 0.53–0.60 ms (docs/performance.md §9). The setting rides on the BEGIN: one round trip for both.
    const applied = await transactionWithSettings(this.dataSource, [GENERIC_PLANS], async (manager) => {
      const claimed = await claimIntake(
        manager,
        LEDGER_CONSUMER,
        readable.map(({ event }) => event.event_id),
        accountSetsOf(readable.map(({ fact }) => fact)),
      );
      // The first copy of each claimed event (a chunk may carry a republished one twice).
      const taken = readable.filter(({ event }) => claimed.delete(event.event_id));
      await this.postings.apply(manager, taken.map(({ fact }) => fact));
      return new Set(taken.map(({ index }) => index));
    });
    return events.map((_, index) => (applied.has(index) ? 'applied' : 'duplicate'));
  }

  /** The facts of the events that move money, with their place in the chunk. */
  private readFacts(events: readonly DomainEvent[]): ReadableEvent[] {
    const readable: ReadableEvent[] = [];
    for (const [index, event] of events.entries()) {
      if (!LEDGER_EVENTS.has(event.event_name)) continue;
      try {
        readable.push({ index, event, fact: readFact(event) });
      } catch (error) {
        if (!(error instanceof EventDataError)) throw error;
        // Retrying cannot make a malformed event whole: say so loudly and move on, as for unparseable ones.
        this.logger.error({ err: error, event_id: event.event_id, event_name: event.event_name }, 'skipping acquiring event the ledger cannot read');
      }
    }
    return readable;
  }
}
