import { AcquiringEvents, DomainEvent } from '@paygrid/contracts';
import { parseAmount } from '@paygrid/money';

/**
 * What the ledger reads from each acquiring event it cares about, read completely BEFORE anything is written:
 * an event with a missing or malformed field (EventDataError) can never succeed, and is skipped without
 * having moved any money or claimed its inbox row, whatever else its batch holds.
 */
export class EventDataError extends Error {}

export const LEDGER_EVENTS = new Set<string>([
  AcquiringEvents.attemptCaptureRequested,
  AcquiringEvents.settlementSucceeded,
  AcquiringEvents.refundCreated,
  AcquiringEvents.refundSucceeded,
  AcquiringEvents.refundFailed,
]);

export interface CaptureFact {
  readonly kind: 'capture';
  readonly merchantId: string;
  readonly currency: string;
  readonly attemptId: string;
  readonly intentId: string;
  readonly capturedMinor: bigint;
}

export interface SettlementFact {
  readonly kind: 'settlement';
  readonly merchantId: string;
  readonly currency: string;
  /** The capture the settlement implies (posted first if its own event has not arrived yet). */
  readonly capture: CaptureFact;
  readonly settlementId: string;
  readonly settlementBatchId: string;
  readonly settledAt?: Date;
  readonly grossMinor: bigint;
  readonly feeMinor: bigint;
}

export interface RefundFact {
  readonly kind: 'refund';
  readonly step: 'created' | 'succeeded' | 'failed';
  readonly merchantId: string;
  readonly currency: string;
  readonly refundId: string;
  readonly intentId: string;
  readonly amountMinor: bigint;
}

export type AcquiringFact = CaptureFact | SettlementFact | RefundFact;

/** The event's fact; throws EventDataError when a field the rules need is missing or malformed. */
export function readFact(event: DomainEvent): AcquiringFact {
  const data = new EventData(event);
  const merchantId = event.account_id;
  switch (event.event_name) {
    case AcquiringEvents.attemptCaptureRequested:
      return {
        kind: 'capture',
        merchantId,
        currency: data.text('currency'),
        attemptId: data.text('attempt_id'),
        intentId: data.text('payment_intent_id'),
        capturedMinor: data.amountIn('captured_amount'),
      };
    case AcquiringEvents.settlementSucceeded: {
      const currency = data.text('currency');
      const grossMinor = data.amountIn('amount');
      const capture: CaptureFact = {
        kind: 'capture',
        merchantId,
        currency,
        attemptId: data.text('payment_attempt_id'),
        intentId: data.text('payment_intent_id'),
        capturedMinor: grossMinor,
      };
      return {
        kind: 'settlement',
        merchantId,
        currency,
        capture,
        settlementId: data.text('settlement_id'),
        settlementBatchId: data.text('settlement_batch_id'),
        settledAt: validDate(data.text('settled_time')),
        grossMinor,
        feeMinor: data.amountIn('fee_amount'),
      };
    }
    case AcquiringEvents.refundCreated:
    case AcquiringEvents.refundSucceeded:
    case AcquiringEvents.refundFailed:
      return {
        kind: 'refund',
        step: refundStep(event.event_name),
        merchantId,
        currency: data.text('currency'),
        refundId: data.text('payment_refund_id'),
        intentId: data.text('payment_intent_id'),
        amountMinor: data.amountIn('amount'),
      };
    default:
      throw new EventDataError(`${event.event_name} ${event.event_id}: not an event the ledger reads`);
  }
}

function refundStep(eventName: string): RefundFact['step'] {
  if (eventName === AcquiringEvents.refundCreated) return 'created';
  return eventName === AcquiringEvents.refundSucceeded ? 'succeeded' : 'failed';
}

/**
 * Entries are referenced by the business id, not the event id, so even a republished event with a new id
 * cannot post twice.
 */
export const references = {
  capture: (attemptId: string) => `capture:${attemptId}`,
  settlement: (settlementId: string) => `settlement:${settlementId}`,
  refund: (refundId: string, step: 'reserve' | 'paid' | 'returned') => `refund:${refundId}:${step}`,
};

/** Every entry the fact may post: what the batch asks the ledger about before splitting on funds. */
export function referencesOf(fact: AcquiringFact): string[] {
  switch (fact.kind) {
    case 'capture':
      return [references.capture(fact.attemptId)];
    case 'settlement':
      return [references.capture(fact.capture.attemptId), references.settlement(fact.settlementId)];
    case 'refund':
      return [references.refund(fact.refundId, 'reserve'), references.refund(fact.refundId, fact.step === 'failed' ? 'returned' : 'paid')];
  }
}

/** Whether the fact's entries split on the merchant's funds (read under lock): all but a bare capture. */
export function needsFunds(fact: AcquiringFact): boolean {
  return fact.kind !== 'capture';
}

/** Reads the fields the rules need from an event's data; a missing or malformed one can never succeed. */
class EventData {
  private readonly data: Record<string, unknown>;

  constructor(private readonly event: DomainEvent) {
    this.data = event.data;
  }

  text(field: string): string {
    const value = this.data[field];
    if (typeof value !== 'string' || value === '') throw new EventDataError(`${this.event.event_name} ${this.event.event_id}: data.${field} missing`);
    return value;
  }

  /**
   * A decimal amount of the resource, in minor units of its `currency`. Acquiring's events carry the
   * resource as the API shows it (decimal strings), never minor units (issue 13, item 9).
   */
  amountIn(field: string): bigint {
    const currency = this.text('currency');
    const text = this.text(field);
    try {
      return parseAmount(text, currency);
    } catch {
      throw new EventDataError(`${this.event.event_name} ${this.event.event_id}: data.${field} is not an amount in ${currency}`);
    }
  }
}

function validDate(text: string): Date | undefined {
  const time = Date.parse(text);
  return Number.isFinite(time) ? new Date(time) : undefined;
}
