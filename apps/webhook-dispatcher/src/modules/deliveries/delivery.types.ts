import { DeliveryStatus } from './delivery.states';

/**
 * One event to one endpoint (table webhook_deliveries; all SQL in DeliveryRepository): the durable record
 * of what must still be sent. `accountId` is the endpoint owner's, which is who may see it.
 */
export type AttemptTrigger = 'scheduled' | 'manual';

export interface Delivery {
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
export interface DeliveryWithEvent extends Delivery {
  eventType: string;
  eventAccountId: string;
}

/** One row of the append-only attempt log (table webhook_attempts). */
export interface Attempt {
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

/** A webhook_deliveries row as Postgres returns it. */
export type DeliveryRow = {
  delivery_id: string;
  event_id: string;
  endpoint_id: string;
  account_id: string;
  event_name: string;
  status: DeliveryStatus;
  trigger: AttemptTrigger;
  attempt_count: number;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

/** A delivery row joined with its event's type and account. */
export type DeliveryWithEventRow = DeliveryRow & { event_type: string; event_account_id: string };

/** A webhook_attempts row as Postgres returns it. */
export type AttemptRow = {
  delivery_id: string;
  attempt_number: number;
  endpoint_id: string;
  event_id: string;
  trigger: AttemptTrigger;
  url: string;
  attempted_at: Date;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  response_excerpt: string;
  succeeded: boolean;
};
