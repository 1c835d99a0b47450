import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Logger } from 'pino';
import { LOGGER } from '@paygrid/platform';
import { DISPATCHER_CONFIG, DispatcherConfig } from '../../config';
import { ClaimedDelivery } from '../deliveries/delivery.repository';
import { DeliveryProcessor } from './delivery-processor';
import { inDeliverySpan } from './delivery-span';

/**
 * The first attempt of a fresh delivery, sent by the process that took its event in, without a queue hop.
 *
 * Through BullMQ a first attempt cost an enqueue, a job fetch and completion (three Redis scripts), a
 * lease claim and a delivery read in Postgres, before a byte was sent: most of the dispatcher's CPU per
 * delivery and most of a webhook's latency under load (docs/performance.md). The intake already holds what
 * the attempt needs (the body it stored, the endpoint and its secrets it fanned out to), so it inserts up to
 * WEBHOOK_DIRECT_SENDS deliveries already leased (delivery.repository.ts `insertMany`) and hands them here
 * after its commit. From there an attempt is the same as a job's (DeliveryProcessor.attempt): send, record
 * conditionally on the attempt number, and a retry is enqueued as a BullMQ job.
 *
 * Nothing is lost if this process dies with attempts in flight: the lease expires and the reconciler
 * enqueues the delivery as it does for a crashed worker (the receiver may then get the attempt twice, as
 * at-least-once delivery allows). At most WEBHOOK_DIRECT_SENDS attempts are in flight; up to four times
 * as many more wait here for a slot, in order. When every place is taken, the intake leaves deliveries
 * unleased and enqueues them, so a slow endpoint fills the queue, not the intake.
 */
/**
 * Deliveries the intake may hand over beyond those in flight, per slot: they wait here, in order, for a free
 * slot. A chunk's fan-out comes all at once (a backlog's chunk of 200 events to two endpoints is 400
 * deliveries), so without a line even a short burst found every slot taken and sent the rest the slow way
 * (queue, job, claim: seconds under load; the create bench's webhook p99 went from ~0.4 s to 1-2.5 s in the
 * runs where it happened, docs/performance.md §18).
 */
const WAITING_PER_SLOT = 4;
/** Kept between a waiting delivery's last safe start and its lease's end, for the start itself. */
const START_SAFETY_MS = 1_000;

interface Waiting {
  claimed: ClaimedDelivery;
  /** After this, a full attempt (up to the HTTP timeout) would outlast the lease the intake gave it. */
  startBy: number;
}

@Injectable()
export class DirectSends implements OnApplicationShutdown {
  private readonly slots: number;
  /** Slots and the places in line behind them. */
  private readonly places: number;
  /** How long after its hand-over a waiting delivery may still start. */
  private readonly startWithinMs: number;
  /** Slots granted to the intake: attempts in flight, waiting here, or about to be handed over. */
  private reserved = 0;
  private sending = 0;
  private readonly waiting: Waiting[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly processor: DeliveryProcessor,
    @Inject(DISPATCHER_CONFIG) config: DispatcherConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.slots = config.WEBHOOK_DIRECT_SENDS;
    this.places = this.slots * (1 + WAITING_PER_SLOT);
    this.startWithinMs = Math.max(0, processor.leaseMs - config.WEBHOOK_TIMEOUT_MS - START_SAFETY_MS);
  }

  /** The lease the intake gives a delivery it reserved a slot for. */
  get leaseMs(): number {
    return this.processor.leaseMs;
  }

  /**
   * Takes up to `wanted` of the places (a slot, or a place in the line behind them); the caller must `start`
   * or `release` each one it got.
   */
  reserve(wanted: number): number {
    const granted = Math.max(0, Math.min(wanted, this.places - this.reserved));
    this.reserved += granted;
    return granted;
  }

  release(count: number): void {
    this.reserved = Math.max(0, this.reserved - count);
  }

  /**
   * Sends each leased delivery's first attempt as soon as a slot is free, in the order handed over; each frees
   * its place once recorded (or failed to be). One that waited too long to start safely within its lease is
   * not sent here: its lease runs out and the reconciler enqueues it, as for a crashed process.
   */
  start(claimed: ClaimedDelivery[]): void {
    const startBy = Date.now() + this.startWithinMs;
    for (const delivery of claimed) this.waiting.push({ claimed: delivery, startBy });
    this.sendWhileFree();
  }

  /** Lets attempts in flight finish and record (each bounded by the HTTP deadline) before Postgres closes. */
  async onApplicationShutdown(): Promise<void> {
    // Those still waiting hold their leases until they run out; the reconciler then enqueues them.
    this.release(this.waiting.splice(0).length);
    await Promise.allSettled([...this.inFlight]);
  }

  private sendWhileFree(): void {
    let late = 0;
    while (this.sending < this.slots && this.waiting.length > 0) {
      const next = this.waiting.shift() as Waiting;
      if (Date.now() > next.startBy) {
        late += 1;
        this.release(1);
        continue;
      }
      this.send(next.claimed);
    }
    if (late > 0)
      this.logger.warn(
        { deliveries: late },
        'first attempts waited too long for a direct-send slot; their leases run out and the reconciler enqueues them',
      );
  }

  private send(claimed: ClaimedDelivery): void {
    const id = claimed.delivery.deliveryId;
    this.sending += 1;
    const sending = inDeliverySpan(id, 1, () => this.processor.attempt(claimed, 1))
      .catch((error: unknown) =>
        // The lease runs out and the reconciler enqueues the attempt: late, not lost.
        this.logger.warn(
          { err: error, delivery_id: id },
          'direct attempt failed; the reconciler will retry it',
        ),
      )
      .finally(() => {
        this.sending -= 1;
        this.release(1);
        this.inFlight.delete(sending);
        this.sendWhileFree();
      });
    this.inFlight.add(sending);
  }
}
