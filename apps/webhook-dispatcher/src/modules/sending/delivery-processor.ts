import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import {
  ASYNCHRONOUS_COMMIT,
  Executor,
  GENERIC_PLANS,
  GroupCommit,
  LOGGER,
  transactionEndingWith,
} from '@paygrid/platform';
import { DISPATCHER_CONFIG, DispatcherConfig } from '../../config';
import { Delivery } from '../deliveries/delivery.types';
import { AttemptOutcome, ClaimedDelivery, DeliveryRepository } from '../deliveries/delivery.repository';
import { Endpoint } from '../endpoints/endpoint.types';
import { EndpointRepository } from '../endpoints/endpoint.repository';
import { EndpointService } from '../endpoints/endpoint.service';
import { DeliveryJob, DeliveryQueue } from './delivery-queue';
import { AttemptDecision, decideAfterAttempt, RetryPolicy } from './retry-policy';
import { attemptTouchesEndpoint } from './endpoint-streak';
import { signedHeaders } from './webhook-signer';
import { SendResult, WebhookSender } from './webhook-sender';
import { WebhookMetrics } from './webhook-metrics';

/**
 * One job = one attempt of one delivery:
 * 1. claim: a lease on the delivery in Postgres, only if it still waits for exactly this attempt (a stale
 *    or duplicated job ends here, having sent nothing);
 * 2. send the stored body, signed with the endpoint's active secrets, outside any transaction;
 * 3. record, in one transaction: the attempt row, the delivery's new status (conditional on the attempt
 *    number, so two workers cannot both record it), the endpoint's failure streak and, when it answered
 *    410 or has failed for WEBHOOK_DISABLE_AFTER_MS, its disabling with an operational event (an attempt
 *    that leaves the endpoint as it is, a plain success or one more failure of a failing endpoint, writes
 *    only the delivery and its attempt, grouped with the other attempts of the moment into one statement:
 *    see GroupCommit and endpoint-streak.ts);
 * 4. after the commit, enqueue the next attempt. If the process dies anywhere in between, Postgres still
 *    says the attempt is due and the reconciler enqueues it again once the lease has expired.
 */
export type ProcessOutcome = 'stale' | 'succeeded' | 'rescheduled' | 'failed' | 'cancelled';

/** The lease outlives the HTTP deadline, so a live worker's delivery is never taken from it. */
const LEASE_MARGIN_MS = 5_000;

class AttemptSuperseded extends Error {}

@Injectable()
export class DeliveryProcessor {
  private readonly policy: RetryPolicy;
  /**
   * Attempts that leave the endpoint as it is, recorded together: one statement for all that finished
   * while the last one was written.
   */
  private readonly quietAttempts: GroupCommit<AttemptOutcome, boolean>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveryRepository,
    private readonly endpoints: EndpointRepository,
    private readonly endpointService: EndpointService,
    private readonly queue: DeliveryQueue,
    private readonly sender: WebhookSender,
    private readonly metrics: WebhookMetrics,
    @Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.policy = {
      scheduleMs: config.WEBHOOK_RETRY_SCHEDULE_MS,
      jitterPercent: config.WEBHOOK_RETRY_JITTER_PERCENT,
      retryAfterMaxMs: config.WEBHOOK_RETRY_AFTER_MAX_MS,
    };
    metrics.pendingSource = () => this.deliveries.countPending(this.dataSource);
    // One round trip: BEGIN with GENERIC_PLANS, the statement and COMMIT. On its custom plans (they know the
    // arrays' lengths) the statement was planned again on every group, a third of its execution time.
    // ASYNCHRONOUS_COMMIT: the COMMIT does not wait for its WAL flush (one fdatasync fewer per group, and one
    // fewer for every commit of the server to queue behind). These outcomes touch only their deliveries: a
    // Postgres crash in the moment before the flush leaves them as before the attempt, leased, and the
    // reconciler sends them again once the lease expires: a second copy, which at-least-once delivery allows
    // (docs/webhooks.md). Attempts that touch the endpoint (disabling it, ending a streak) stay synchronous.
    this.quietAttempts = new GroupCommit((outcomes) => {
      const { statement, read } = this.deliveries.recordAttemptsStatement(outcomes);
      return transactionEndingWith(this.dataSource, [GENERIC_PLANS, ASYNCHRONOUS_COMMIT], async () => ({
        last: statement,
        read,
      }));
    });
  }

  /** The lease a worker holds while it sends one attempt. */
  get leaseMs(): number {
    return this.config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS;
  }

  async process(job: DeliveryJob): Promise<ProcessOutcome> {
    const claimed = await this.deliveries.claim(this.dataSource, job.delivery_id, job.attempt, this.leaseMs);
    if (!claimed) return 'stale';
    return this.attempt(claimed, job.attempt);
  }

  /** Steps 2 to 4 for a delivery this process holds the lease of (claimed, or leased at intake). */
  async attempt(claimed: ClaimedDelivery, attempt: number): Promise<ProcessOutcome> {
    const job: DeliveryJob = { delivery_id: claimed.delivery.deliveryId, attempt };
    const { delivery, endpoint, body, secrets } = claimed;
    if (endpoint.status === 'DELETED') return this.settle(delivery, 'CANCEL', 'endpoint deleted');
    if (endpoint.status === 'DISABLED') return this.settle(delivery, 'FAIL', 'endpoint disabled');

    const attemptedAt = new Date();
    const headers = signedHeaders({
      eventId: delivery.eventId,
      body,
      secrets,
      timestampSeconds: Math.floor(attemptedAt.getTime() / 1000),
    });
    const result = await this.sender.send(endpoint.url, body, headers);
    const attemptResult = this.metrics.resultOf(result.statusCode, result.error);
    this.metrics.attempts.inc({ result: attemptResult });
    this.metrics.attemptDuration.observe({ result: attemptResult }, result.latencyMs / 1000);

    const decision = decideAfterAttempt(
      this.policy,
      { statusCode: result.statusCode, retryAfter: result.retryAfter },
      { number: job.attempt, manual: delivery.trigger === 'manual' },
      new Date(),
    );
    // The common cases (a success with no failure streak to end, one more failure of a failing
    // endpoint) touch the delivery only: they join the group commit. Anything touching the endpoint too
    // runs as one transaction.
    const touchesEndpoint = attemptTouchesEndpoint(
      decision,
      endpoint,
      new Date(),
      this.config.WEBHOOK_DISABLE_AFTER_MS,
    );
    let outcome: ProcessOutcome;
    try {
      const recordOn = (executor: Executor, store: (recorded: AttemptOutcome) => Promise<boolean>) =>
        this.record(
          executor,
          store,
          { delivery, endpoint, touchesEndpoint },
          job.attempt,
          attemptedAt,
          result,
          decision,
        );
      outcome = touchesEndpoint
        ? await this.dataSource.transaction((manager) =>
            recordOn(manager, (recorded) => this.deliveries.recordAttempt(manager, recorded)),
          )
        : await recordOn(this.dataSource, (recorded) => this.quietAttempts.submit(recorded));
    } catch (error) {
      if (!(error instanceof AttemptSuperseded)) throw error;
      this.logger.warn(
        { delivery_id: delivery.deliveryId, attempt: job.attempt },
        'attempt already recorded by another worker',
      );
      return 'stale';
    }
    if (outcome === 'succeeded') {
      this.metrics.deliveries.inc({ outcome: 'succeeded' });
      this.metrics.eventToDelivery.observe(
        Math.max(0, Date.now() - claimed.eventCreatedAt.getTime()) / 1000,
      );
      if (touchesEndpoint) await this.releaseHeldOf(endpoint);
    } else if (outcome === 'failed') this.metrics.deliveries.inc({ outcome: 'failed' });
    else if (outcome === 'rescheduled' && decision.kind === 'retry') {
      // Never rejects: a failed enqueue is logged by DurableJobs, and the reconciler enqueues from Postgres.
      const dueAt = new Date(Date.now() + decision.delayMs);
      await this.queue.enqueueRetry({ deliveryId: delivery.deliveryId, attempt: job.attempt + 1, dueAt });
    }
    return outcome;
  }

  /** The endpoint's side of an attempt on `executor` (if it has one), then the attempt itself through `store`. */
  private async record(
    executor: Executor,
    store: (outcome: AttemptOutcome) => Promise<boolean>,
    target: { delivery: Delivery; endpoint: Endpoint; touchesEndpoint: boolean },
    attempt: number,
    attemptedAt: Date,
    result: SendResult,
    decision: AttemptDecision,
  ): Promise<ProcessOutcome> {
    const { delivery, endpoint } = target;
    const now = new Date();
    // Without an endpoint write (endpoint-streak.ts) the endpoint is, as of the claim, enabled.
    const endpointStillEnabled = target.touchesEndpoint
      ? await this.updateEndpoint(executor, endpoint, decision, attemptedAt, now)
      : true;
    const event =
      decision.kind === 'succeeded'
        ? 'SUCCEED'
        : decision.kind === 'retry' && endpointStillEnabled
          ? 'RESCHEDULE'
          : 'FAIL';
    const attemptOutcome: AttemptOutcome = {
      deliveryId: delivery.deliveryId,
      attempt,
      event,
      nextAttemptAt:
        event === 'RESCHEDULE' && decision.kind === 'retry'
          ? new Date(now.getTime() + decision.delayMs)
          : null,
      attemptedAt,
      statusCode: result.statusCode,
      error: result.error,
      url: endpoint.url,
      latencyMs: result.latencyMs,
      responseExcerpt: result.responseExcerpt,
    };
    if (!(await store(attemptOutcome))) throw new AttemptSuperseded();
    return event === 'SUCCEED' ? 'succeeded' : event === 'RESCHEDULE' ? 'rescheduled' : 'failed';
  }

  /** Ends or starts the endpoint's failure streak, disabling it when due; whether it is still enabled. */
  private async updateEndpoint(
    executor: Executor,
    endpoint: Endpoint,
    decision: AttemptDecision,
    attemptedAt: Date,
    now: Date,
  ): Promise<boolean> {
    if (decision.kind === 'succeeded') {
      // As of the claim; a streak that started since is ended by the endpoint's next success.
      await this.endpoints.clearFailing(executor, endpoint.endpointId);
      return true;
    }
    const failing = await this.endpoints.markFailing(executor, endpoint.endpointId, attemptedAt);
    const streakMs = failing?.failingSince ? now.getTime() - failing.failingSince.getTime() : 0;
    const reason =
      decision.kind === 'gone' ? 'gone' : streakMs >= this.config.WEBHOOK_DISABLE_AFTER_MS ? 'failing' : null;
    if (reason && failing?.status === 'ENABLED')
      await this.endpointService.disable(executor, failing, reason, now);
    return reason === null && failing?.status === 'ENABLED';
  }

  /**
   * The endpoint answers again (this success ended its streak): the deliveries held behind the streak are
   * due now. After the commit that ended it; if this process dies first, the reconciler's pass releases
   * them (DeliveryRepository.releaseStranded), as it enqueues whatever this enqueue misses.
   */
  private async releaseHeldOf(endpoint: Endpoint): Promise<void> {
    try {
      const released = await this.deliveries.releaseHeld(this.dataSource, endpoint.endpointId);
      if (released.length === 0) return;
      this.logger.info(
        { endpoint_id: endpoint.endpointId, count: released.length },
        'endpoint answers again: released the deliveries held behind its failures',
      );
      await this.queue.enqueue(released);
    } catch (error) {
      this.logger.warn(
        { err: error, endpoint_id: endpoint.endpointId },
        'releasing held deliveries failed; the reconciler will',
      );
    }
  }

  private async settle(
    delivery: Delivery,
    event: 'FAIL' | 'CANCEL',
    reason: string,
  ): Promise<ProcessOutcome> {
    const settled = await this.deliveries.settle(this.dataSource, delivery.deliveryId, event, reason);
    if (!settled) return 'stale';
    const outcome = event === 'FAIL' ? 'failed' : 'cancelled';
    this.metrics.deliveries.inc({ outcome });
    return outcome;
  }
}
