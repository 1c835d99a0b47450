import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Consumer, Kafka, KafkaMessage } from 'kafkajs';
import { Logger } from 'pino';
import { DomainEvent, EventFormatError, parseDomainEvent } from '@paygrid/contracts';
import {
  claimInboxEvents,
  CONSUMER_DEFAULTS,
  ConsumerHealth,
  KAFKA,
  KafkaNames,
  LOGGER,
  Metrics,
  SupervisedConsumer,
  traceEventBatch,
} from '@paygrid/platform';
import {
  ClaimedDelivery,
  DeliveryRepository,
  InsertedDelivery,
  NewDelivery,
} from '../deliveries/delivery.repository';
import { EndpointRepository, FanOutCandidate } from '../endpoints/endpoint.repository';
import { matchesEventFilter } from '../endpoints/event-filter';
import { DeliveryQueue } from '../sending/delivery-queue';
import { DirectSends } from '../sending/direct-sends';
import { EventRepository } from './event.repository';
import { isDeliverable, serializeWebhookBody } from './webhook-body';

/**
 * Event intake: consumes every domain event topic and stores each event exactly once, deduplicated
 * through the inbox in the same transaction as the insert, so Kafka redeliveries and outbox
 * republishing change nothing. In that same transaction it fans the event out: one pending delivery
 * per enabled endpoint of the event's account, and of its master where the endpoint opted in to
 * sub-accounts, whose event-name filter matches. OPERATIONS events are stored but never delivered.
 * After the commit, the deliveries inserted leased get their first attempt from this process
 * (direct-sends.ts), and the others are enqueued (if that fails, the reconciler enqueues them from Postgres).
 *
 * Messages are taken a batch at a time (up to INTAKE_CHUNK per transaction, one commit instead of one
 * per event: the intake is the dispatcher's throughput limit), and an offset is committed only after
 * its chunk committed, so a crash re-reads at most the chunk in flight and the inbox absorbs it. A
 * malformed message can never succeed: it is logged and skipped, as the platform's EventSubscriber does.
 *
 * The consumer group starts from the earliest offset on first start: a new dispatcher deployment must
 * not miss events published before it joined. The consumer is supervised (readiness is down while it
 * does not consume; after a crash kafkajs gives up on, a fresh one starts).
 */
export const INTAKE_CONSUMER = 'webhook-intake';
const INTAKE_CHUNK = 200;

/** One event for one endpoint, with what its first attempt will need. */
interface DeliveryTarget {
  pair: NewDelivery;
  event: DomainEvent;
  candidate: FanOutCandidate;
}

interface IncomingEvent {
  event: DomainEvent;
  topic: string;
}

@Injectable()
export class EventIntakeService implements OnApplicationBootstrap, OnApplicationShutdown {
  private supervisor?: SupervisedConsumer;

  constructor(
    private readonly dataSource: DataSource,
    private readonly events: EventRepository,
    private readonly endpoints: EndpointRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
    private readonly direct: DirectSends,
    @Inject(KAFKA) private readonly kafka: Kafka,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: Metrics,
    private readonly names: KafkaNames,
    private readonly health: ConsumerHealth,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const supervisor = this.health.supervise({
      name: INTAKE_CONSUMER,
      create: () => this.kafka.consumer({ groupId: this.names.group(INTAKE_CONSUMER), ...CONSUMER_DEFAULTS }),
      run: (consumer) => this.consume(consumer),
    });
    await supervisor.start();
    this.supervisor = supervisor;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.supervisor?.stop();
  }

  private async consume(consumer: Consumer): Promise<void> {
    await consumer.subscribe({ topics: this.names.eventTopics(), fromBeginning: true });
    await consumer.run({
      partitionsConsumedConcurrently: 3,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        for (let start = 0; start < batch.messages.length; start += INTAKE_CHUNK) {
          if (!isRunning() || isStale()) return;
          const chunk = batch.messages.slice(start, start + INTAKE_CHUNK);
          await traceEventBatch(batch.topic, chunk, () => this.storeChunk(batch.topic, chunk));
          resolveOffset(chunk[chunk.length - 1].offset);
          await heartbeat();
        }
      },
    });
  }

  /**
   * Stores events in one transaction (the inbox decides which are new, the chunk's inbox rows, new events
   * and their deliveries are inserted with one statement each), then starts the first attempts it leased
   * for this process's direct sends and enqueues the other deliveries it made due.
   */
  async storeAll(incoming: IncomingEvent[]): Promise<('applied' | 'duplicate')[]> {
    let reserved = 0;
    let stored: { fresh: Set<string>; inserted: (InsertedDelivery & { claimed: ClaimedDelivery })[] };
    try {
      stored = await this.dataSource.transaction(async (manager) => {
        const claimed = await claimInboxEvents(
          manager,
          INTAKE_CONSUMER,
          incoming.map((item) => item.event.event_id),
        );
        // The first copy of each claimed event (a batch may carry a republished one twice).
        const taken = new Set<string>();
        const accepted = incoming.filter(
          (item) =>
            claimed.has(item.event.event_id) &&
            !taken.has(item.event.event_id) &&
            taken.add(item.event.event_id),
        );
        await this.events.insertMany(manager, accepted);
        const targets = await this.fanOut(manager, accepted.map((item) => item.event).filter(isDeliverable));
        reserved = this.direct.reserve(targets.length);
        const inserted = await this.deliveries.insertMany(
          manager,
          targets.map((target) => target.pair),
          { count: reserved, ms: this.direct.leaseMs },
        );
        return { fresh: claimed, inserted: this.withTargets(inserted, targets) };
      });
    } catch (error) {
      this.direct.release(reserved);
      throw error;
    }
    const leased = stored.inserted.filter((item) => item.leased);
    // A pair that already had a delivery (a republished event) inserted nothing and needs no slot.
    this.direct.release(reserved - leased.length);
    this.direct.start(leased.map((item) => item.claimed));
    const due = stored.inserted.filter((item) => !item.leased).map((item) => item.due);
    if (due.length > 0)
      await this.queue
        .enqueue(due)
        .catch((error: unknown) =>
          this.logger.warn({ err: error, count: due.length }, 'enqueue failed; the reconciler will'),
        );
    const outcomes: ('applied' | 'duplicate')[] = [];
    for (const { event } of incoming) {
      outcomes.push(stored.fresh.delete(event.event_id) ? 'applied' : 'duplicate');
    }
    return outcomes;
  }

  /** Which endpoints get each event (endpoints looked up once per account of the chunk). */
  private async fanOut(manager: EntityManager, events: DomainEvent[]): Promise<DeliveryTarget[]> {
    const candidates = new Map<string, FanOutCandidate[]>();
    const targets: DeliveryTarget[] = [];
    for (const event of events) {
      const key = `${event.account_id}\n${event.master_account_id}`;
      let endpoints = candidates.get(key);
      if (!endpoints) {
        endpoints = await this.endpoints.fanOutCandidates(manager, event.account_id, event.master_account_id);
        candidates.set(key, endpoints);
      }
      for (const candidate of endpoints) {
        const { endpoint } = candidate;
        if (!matchesEventFilter(endpoint.eventNames, event.event_name)) continue;
        targets.push({
          pair: {
            eventId: event.event_id,
            eventName: event.event_name,
            endpointId: endpoint.endpointId,
            accountId: endpoint.accountId,
          },
          event,
          candidate,
        });
      }
    }
    return targets;
  }

  /** What a leased delivery's first attempt needs, as a claim would have read it. */
  private withTargets(
    inserted: InsertedDelivery[],
    targets: DeliveryTarget[],
  ): (InsertedDelivery & { claimed: ClaimedDelivery })[] {
    const targetOf = new Map(targets.map((target) => [target.pair, target]));
    return inserted.map((item) => {
      const { event, candidate } = targetOf.get(item.pair) as DeliveryTarget;
      return {
        ...item,
        claimed: {
          delivery: item.delivery,
          endpoint: candidate.endpoint,
          body: serializeWebhookBody(event),
          eventCreateTime: event.create_time,
          secrets: candidate.secrets,
        },
      };
    });
  }

  private async storeChunk(topic: string, messages: KafkaMessage[]): Promise<void> {
    const incoming: IncomingEvent[] = [];
    for (const message of messages) {
      try {
        incoming.push({ event: parseDomainEvent(message.value?.toString('utf8') ?? ''), topic });
      } catch (error) {
        if (!(error instanceof EventFormatError)) throw error;
        this.metrics.eventsConsumed.inc({ topic, outcome: 'malformed' });
        this.logger.error({ err: error, topic, offset: message.offset }, 'skipping malformed event');
      }
    }
    if (incoming.length === 0) return;
    try {
      const outcomes = await this.storeAll(incoming);
      for (const outcome of outcomes) this.metrics.eventsConsumed.inc({ topic, outcome });
    } catch (error) {
      this.metrics.eventsConsumed.inc({ topic, outcome: 'failed' }, incoming.length);
      this.logger.error({ err: error, topic, count: incoming.length }, 'storing events failed; will retry');
      throw error;
    }
  }
}
