import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Kafka } from 'kafkajs';
import { Logger } from 'pino';
import { DomainEvent, EventFamily, EventTopics } from '@paygrid/contracts';
import {
  ConsumerHealth,
  EventBatchSubscriber,
  KAFKA,
  KafkaNames,
  LOGGER,
  Metrics,
  transactionEndingWith,
} from '@paygrid/platform';
import {
  ClaimedDelivery,
  DeliveryRepository,
  InsertedDelivery,
  NewDelivery,
} from '../deliveries/delivery.repository';
import { DeliveryRow } from '../deliveries/delivery.types';
import {
  audienceOf,
  EndpointRepository,
  FanOutCandidate,
  SealedCandidateRow,
} from '../endpoints/endpoint.repository';
import { matchesEventFilter } from '../endpoints/event-filter';
import { DeliveryQueue } from '../sending/delivery-queue';
import { DirectSends } from '../sending/direct-sends';
import { WebhookMetrics } from '../sending/webhook-metrics';
import { holdsNewDeliveries } from '../sending/endpoint-streak';
import { EventRepository, StoredEventRow } from './event.repository';
import { isDeliverable, serializeWebhookBody } from './webhook-body';

/**
 * Event intake: consumes every domain event topic and stores each event exactly once, deduplicated
 * through the inbox in the same transaction as the insert, so Kafka redeliveries and outbox
 * republishing change nothing. In that same transaction it fans the event out: one pending delivery
 * per enabled endpoint of the event's account, and of its master where the endpoint opted in to
 * sub-accounts, whose event-name filter matches; a delivery to an endpoint in a failure streak is held
 * (endpoint-streak.ts). OPERATIONS events are stored but never delivered.
 * After the commit, the deliveries inserted leased get their first attempt from this process
 * (direct-sends.ts), and the others are enqueued (if that fails, the reconciler enqueues them from Postgres).
 *
 * Messages are taken a chunk at a time by the platform's EventBatchSubscriber (up to INTAKE_CHUNK per
 * transaction, one commit instead of one per event: the intake is the dispatcher's throughput limit); an
 * offset is committed only after its chunk committed (at most once a second), so a crash re-reads about
 * a second of events and the inbox absorbs them; a malformed message is logged and skipped; the consumer is supervised.
 *
 * The consumer group starts from the earliest offset on first start: a new dispatcher deployment must
 * not miss events published before it joined.
 */
export const INTAKE_CONSUMER = 'webhook-intake';
const INTAKE_CHUNK = 200;

/** One event for one endpoint, with what its first attempt will need. */
interface DeliveryTarget {
  pair: NewDelivery;
  stored: StoredEventRow;
  candidate: FanOutCandidate;
}

interface IncomingEvent {
  event: DomainEvent;
  topic: string;
}

@Injectable()
export class EventIntakeService implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscriber?: EventBatchSubscriber;

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
    private readonly webhookMetrics: WebhookMetrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscriber = new EventBatchSubscriber(
      this.kafka,
      { names: this.names, group: INTAKE_CONSUMER, families: Object.keys(EventTopics) as EventFamily[] },
      (events, topic) => this.storeAll(events.map((event) => ({ event, topic }))),
      this.logger,
      this.metrics,
      { chunkSize: INTAKE_CHUNK, health: this.health },
    );
    await this.subscriber.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.stop();
  }

  /**
   * Stores events in one transaction (one statement claims the chunk's events in the inbox, inserts the
   * new ones and reads their endpoints; one inserts the deliveries), then starts the first attempts it leased
   * for this process's direct sends and enqueues the other deliveries it made due.
   */
  async storeAll(incoming: IncomingEvent[]): Promise<('applied' | 'duplicate')[]> {
    let reserved = 0;
    let stored: { fresh: Set<string>; inserted: (InsertedDelivery & { claimed: ClaimedDelivery })[] };
    try {
      // BEGIN rides with the claim, and the deliveries' insert with COMMIT (pipelined-transaction.ts in
      // libs/platform): two round trips for the chunk.
      stored = await transactionEndingWith(this.dataSource, [], async (manager) => {
        // The first copy of each event (a batch may carry a republished one twice), each body serialised
        // once: stored with the event, sent by its direct first attempts.
        const firstCopies = new Map<string, StoredEventRow>();
        for (const item of incoming)
          if (!firstCopies.has(item.event.event_id))
            firstCopies.set(item.event.event_id, { ...item, body: serializeWebhookBody(item.event) });
        const rows = [...firstCopies.values()];
        const { claimed, audiences } = await this.events.claimAndInsert(manager, INTAKE_CONSUMER, rows);
        const targets = this.fanOut(
          rows.filter((item) => claimed.has(item.event.event_id) && isDeliverable(item.event)),
          audiences,
        );
        // Held pairs last: the first `reserved` rows are leased for direct sends, and no held one may be.
        const sendable = targets.filter((target) => !target.pair.held);
        reserved = this.direct.reserve(sendable.length);
        const pairs = [...sendable, ...targets.filter((target) => target.pair.held)].map((target) => target.pair);
        if (pairs.length === 0) return { read: () => ({ fresh: claimed, inserted: [] }) };
        const insert = this.deliveries.insertManyStatement(pairs, { count: reserved, ms: this.direct.leaseMs });
        return {
          last: insert.statement,
          read: (inserted: DeliveryRow[]) => ({
            fresh: claimed,
            inserted: this.withTargets(insert.read(inserted), targets),
          }),
        };
      });
    } catch (error) {
      this.direct.release(reserved);
      throw error;
    }
    const leased = stored.inserted.filter((item) => item.leased);
    // A pair that already had a delivery (a republished event) inserted nothing and needs no slot.
    this.direct.release(reserved - leased.length);
    this.direct.start(leased.map((item) => item.claimed));
    const due = stored.inserted.flatMap((item) => (item.leased || item.due === null ? [] : [item.due]));
    // Queued first attempts mean the direct-send slots and the line behind them were full: a slower path.
    this.webhookMetrics.firstAttempts.inc({ path: 'direct' }, leased.length);
    this.webhookMetrics.firstAttempts.inc({ path: 'queued' }, due.length);
    this.webhookMetrics.firstAttempts.inc(
      { path: 'held' },
      stored.inserted.length - leased.length - due.length,
    );
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

  /** Which endpoints get each event: its audience's candidates (read by the claim), whose filter matches. */
  private fanOut(events: StoredEventRow[], audiences: Map<string, SealedCandidateRow[]>): DeliveryTarget[] {
    const opened = new Map<string, FanOutCandidate[]>();
    const targets: DeliveryTarget[] = [];
    for (const stored of events) {
      const { event } = stored;
      const audience = audienceOf(event.account_id, event.master_account_id);
      let candidates = opened.get(audience);
      if (!candidates) {
        candidates = this.endpoints.openCandidates(audiences.get(audience) ?? []);
        opened.set(audience, candidates);
      }
      for (const candidate of candidates) {
        const { endpoint } = candidate;
        if (!matchesEventFilter(endpoint.eventNames, event.event_name)) continue;
        targets.push({
          pair: {
            eventId: event.event_id,
            eventName: event.event_name,
            endpointId: endpoint.endpointId,
            accountId: endpoint.accountId,
            held: holdsNewDeliveries(endpoint),
          },
          stored,
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
      const { stored, candidate } = targetOf.get(item.pair) as DeliveryTarget;
      return {
        ...item,
        claimed: {
          delivery: item.delivery,
          endpoint: candidate.endpoint,
          body: stored.body,
          eventCreatedAt: new Date(stored.event.create_time),
          secrets: candidate.secrets,
        },
      };
    });
  }
}
