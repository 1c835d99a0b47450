import { DeliveryStatus } from './delivery.states';

/**
 * One event to one endpoint (table webhook_deliveries; all SQL in DeliveryRepository): the durable record
 * of what must still be sent. `accountId` is the endpoint owner's, which is who may see it.
 */
export type AttemptTrigger = 'scheduled' | 'manual';

export interface DeliveryEntity {
  deliveryId: string;
  eventId: string;
  endpointId: string;
  accountId: string;
  eventName: string;
  status: DeliveryStatus;
  trigger: AttemptTrigger;
  attemptCount: number;
  nextAttemptAt: Date | null;
  leaseUntil: Date | null;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  completedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A delivery with the facts of its event, as the API shows it. */
export interface DeliveryWithEvent extends DeliveryEntity {
  eventType: string;
  eventAccountId: string;
}

/** One row of the append-only attempt log (table webhook_attempts). */
export interface AttemptEntity {
  deliveryId: string;
  attemptNumber: number;
  endpointId: string;
  eventId: string;
  trigger: AttemptTrigger;
  url: string;
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  responseExcerpt: string;
  succeeded: boolean;
}

/** What a job needs to make attempt n: the job id is `${deliveryId}-${attempt}`. */
export interface DueDelivery {
  deliveryId: string;
  attempt: number;
  /** When it is due (the job's delay is computed from it). */
  dueAt: Date;
}
