import { Injectable } from '@nestjs/common';
import { AcquiringEvents, DomainEvent } from '@paygrid/contracts';
import { parseAmount } from '@paygrid/money';
import { Executor } from '@paygrid/platform';
import { MerchantLedger } from './merchant-ledger';
import {
  captureEntry,
  Movement,
  refundPaidEntry,
  refundReserveEntry,
  refundReturnedEntry,
  settlementEntry,
} from './posting-rules';

/**
 * Money in from acquiring: each acquiring event the ledger cares about becomes its entry (posting-rules.ts),
 * inside the caller's transaction (which also claims the event in the inbox, so each applies once).
 *
 * Acquiring publishes captures (keyed by attempt), settlements (by settlement) and refunds (by refund)
 * on different partitions, so a settlement may arrive before its capture: it posts the capture first,
 * under the same reference the capture event uses, and whichever comes second posts nothing. A refund's
 * later events likewise make sure its reserve is there. Entries are referenced by the business id
 * (`capture:<attempt>`), not the event id, so even a republished event with a new id cannot post twice.
 */
export class EventDataError extends Error {}

export const LEDGER_EVENTS = new Set<string>([
  AcquiringEvents.attemptCaptureRequested,
  AcquiringEvents.settlementSucceeded,
  AcquiringEvents.refundCreated,
  AcquiringEvents.refundSucceeded,
  AcquiringEvents.refundFailed,
]);

interface CaptureData {
  attemptId: string;
  intentId: string;
  currency: string;
  capturedMinor: bigint;
}

@Injectable()
export class AcquiringPostings {
  constructor(private readonly ledger: MerchantLedger) {}

  /** Applies the event's entry; false when the ledger does not care about this event. */
  async apply(executor: Executor, event: DomainEvent): Promise<boolean> {
    const data = new EventData(event);
    switch (event.event_name) {
      case AcquiringEvents.attemptCaptureRequested:
        await this.capture(executor, event, {
          attemptId: data.text('attempt_id'),
          intentId: data.text('payment_intent_id'),
          currency: data.text('currency'),
          capturedMinor: data.amountIn('captured_amount'),
        });
        return true;
      case AcquiringEvents.settlementSucceeded:
        await this.settle(executor, event, data);
        return true;
      case AcquiringEvents.refundCreated:
        await this.reserveRefund(executor, event, data);
        return true;
      case AcquiringEvents.refundSucceeded:
        await this.reserveRefund(executor, event, data);
        await this.ledger.post(executor, refundPaidEntry(this.movement(event, data, 'paid', 'refund.paid'), data.amountIn('amount')));
        return true;
      case AcquiringEvents.refundFailed: {
        await this.reserveRefund(executor, event, data);
        const currency = data.text('currency');
        const funds = await this.ledger.lockFunds(executor, event.account_id, currency);
        const movement = this.movement(event, data, 'returned', 'refund.returned');
        await this.ledger.post(executor, refundReturnedEntry(movement, data.amountIn('amount'), funds));
        return true;
      }
      default:
        return false;
    }
  }

  private async capture(executor: Executor, event: DomainEvent, capture: CaptureData): Promise<void> {
    const movement: Movement = {
      reference: `capture:${capture.attemptId}`,
      kind: 'payment.captured',
      merchantId: event.account_id,
      currency: capture.currency,
      metadata: { payment_attempt_id: capture.attemptId, payment_intent_id: capture.intentId },
    };
    await this.ledger.post(executor, captureEntry(movement, capture.capturedMinor));
  }

  private async settle(executor: Executor, event: DomainEvent, data: EventData): Promise<void> {
    const currency = data.text('currency');
    const grossMinor = data.amountIn('amount');
    const attemptId = data.text('payment_attempt_id');
    await this.capture(executor, event, { attemptId, intentId: data.text('payment_intent_id'), currency, capturedMinor: grossMinor });
    const funds = await this.ledger.lockFunds(executor, event.account_id, currency);
    const movement: Movement = {
      reference: `settlement:${data.text('settlement_id')}`,
      kind: 'payment.settled',
      merchantId: event.account_id,
      currency,
      occurredAt: validDate(data.text('settled_time')),
      metadata: { payment_attempt_id: attemptId, settlement_batch_id: data.text('settlement_batch_id'), gross_minor: grossMinor.toString() },
    };
    await this.ledger.post(executor, settlementEntry(movement, { grossMinor, feeMinor: data.amountIn('fee_amount') }, funds));
  }

  /** Sets the refund aside unless an earlier event of the refund did. */
  private async reserveRefund(executor: Executor, event: DomainEvent, data: EventData): Promise<void> {
    const movement = this.movement(event, data, 'reserve', 'refund.reserved');
    if (event.event_name !== AcquiringEvents.refundCreated && (await this.ledger.entry(executor, movement.reference))) return;
    const funds = await this.ledger.lockFunds(executor, event.account_id, movement.currency);
    await this.ledger.post(executor, refundReserveEntry(movement, data.amountIn('amount'), funds));
  }

  private movement(event: DomainEvent, data: EventData, step: string, kind: string): Movement {
    const refundId = data.text('payment_refund_id');
    return {
      reference: `refund:${refundId}:${step}`,
      kind,
      merchantId: event.account_id,
      currency: data.text('currency'),
      metadata: { payment_refund_id: refundId, payment_intent_id: data.text('payment_intent_id') },
    };
  }
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
    return this.decimal(field, this.text('currency'));
  }

  decimal(field: string, currency: string): bigint {
    try {
      return parseAmount(this.text(field), currency);
    } catch (error) {
      if (error instanceof EventDataError) throw error;
      throw new EventDataError(`${this.event.event_name} ${this.event.event_id}: data.${field} is not an amount in ${currency}`);
    }
  }
}

function validDate(text: string): Date | undefined {
  const time = Date.parse(text);
  return Number.isFinite(time) ? new Date(time) : undefined;
}
