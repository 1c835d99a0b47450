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
 * at-least-once delivery allows). When every slot is taken, the intake leaves deliveries unleased and
 * enqueues them, so a slow endpoint fills the queue, not the intake.
 */
@Injectable()
export class DirectSends implements OnApplicationShutdown {
  private readonly slots: number;
  private reserved = 0;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly processor: DeliveryProcessor,
    @Inject(DISPATCHER_CONFIG) config: DispatcherConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.slots = config.WEBHOOK_DIRECT_SENDS;
  }

  /** The lease the intake gives a delivery it reserved a slot for. */
  get leaseMs(): number {
    return this.processor.leaseMs;
  }

  /** Takes up to `wanted` free slots; the caller must `start` or `release` each one it got. */
  reserve(wanted: number): number {
    const granted = Math.max(0, Math.min(wanted, this.slots - this.reserved));
    this.reserved += granted;
    return granted;
  }

  release(count: number): void {
    this.reserved = Math.max(0, this.reserved - count);
  }

  /** Sends each leased delivery's first attempt; each frees its slot once recorded (or failed to be). */
  start(claimed: ClaimedDelivery[]): void {
    for (const delivery of claimed) {
      const id = delivery.delivery.deliveryId;
      const sending = inDeliverySpan(id, 1, () => this.processor.attempt(delivery, 1))
        .catch((error: unknown) =>
          // The lease runs out and the reconciler enqueues the attempt: late, not lost.
          this.logger.warn(
            { err: error, delivery_id: id },
            'direct attempt failed; the reconciler will retry it',
          ),
        )
        .finally(() => {
          this.release(1);
          this.inFlight.delete(sending);
        });
      this.inFlight.add(sending);
    }
  }

  /** Lets attempts in flight finish and record (each bounded by the HTTP deadline) before Postgres closes. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}
