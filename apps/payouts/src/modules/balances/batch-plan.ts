import { NewLedgerEntry } from '@paygrid/ledger';
import { AcquiringFact, CaptureFact, RefundFact, references } from './acquiring-facts';
import {
  captureEntry,
  MerchantFunds,
  Movement,
  refundPaidEntry,
  refundReserveEntry,
  refundReturnedEntry,
  settlementEntry,
} from './posting-rules';

/**
 * The entries a batch of acquiring facts posts, in order, computed without a round trip: the batch reads its
 * merchants' funds and which of its references are stored ONCE, under lock (MerchantLedger.lockIntake), and this
 * plan carries both forward entry by entry, as if each had been posted and read back. So a settlement that
 * follows its capture in the same batch splits on a pending balance that includes it, and a reference already
 * stored or planned earlier in the batch is never planned again.
 *
 * Acquiring publishes captures (keyed by attempt), settlements (by settlement) and refunds (by refund) on
 * different partitions, so a settlement may arrive before its capture: it posts the capture first, under the
 * same reference the capture event uses, and whichever comes second posts nothing. A refund's later events
 * likewise make sure its reserve is there.
 */
export interface IntakeSnapshot {
  /** Funds per merchant and currency (fundsKey), read under lock. */
  readonly funds: ReadonlyMap<string, MerchantFunds>;
  /** The batch's references that were already stored. */
  readonly stored: ReadonlySet<string>;
}

export function fundsKey(merchantId: string, currency: string): string {
  return JSON.stringify([merchantId, currency]);
}

/**
 * `snapshot` may be left out only when no fact needs funds (captures alone): their entries do not depend on
 * what is stored, and the ledger itself turns a stored reference into a no-op.
 */
export function planBatch(facts: readonly AcquiringFact[], snapshot?: IntakeSnapshot): NewLedgerEntry[] {
  const plan = new BatchPlan(snapshot);
  for (const fact of facts) plan.add(fact);
  return plan.entries;
}

/** The buckets the rules split on, and their field in MerchantFunds. */
export const FUNDS_OF_BUCKET: Record<string, keyof MerchantFunds> = {
  pending: 'pending',
  available: 'available',
  refund_advance: 'refundAdvance',
};

class BatchPlan {
  readonly entries: NewLedgerEntry[] = [];
  private readonly planned: Set<string>;
  private readonly funds: Map<string, MerchantFunds>;

  constructor(snapshot?: IntakeSnapshot) {
    this.planned = new Set(snapshot?.stored ?? []);
    this.funds = new Map(snapshot?.funds ?? []);
  }

  add(fact: AcquiringFact): void {
    switch (fact.kind) {
      case 'capture':
        this.capture(fact);
        return;
      case 'settlement': {
        this.capture(fact.capture);
        const movement: Movement = {
          reference: references.settlement(fact.settlementId),
          kind: 'payment.settled',
          merchantId: fact.merchantId,
          currency: fact.currency,
          occurredAt: fact.settledAt,
          metadata: {
            payment_attempt_id: fact.capture.attemptId,
            settlement_batch_id: fact.settlementBatchId,
            gross_minor: fact.grossMinor.toString(),
          },
        };
        this.post(movement.reference, () =>
          settlementEntry(movement, { grossMinor: fact.grossMinor, feeMinor: fact.feeMinor }, this.fundsOf(fact)),
        );
        return;
      }
      case 'refund':
        this.refund(fact);
    }
  }

  private capture(capture: CaptureFact): void {
    const movement: Movement = {
      reference: references.capture(capture.attemptId),
      kind: 'payment.captured',
      merchantId: capture.merchantId,
      currency: capture.currency,
      metadata: { payment_attempt_id: capture.attemptId, payment_intent_id: capture.intentId },
    };
    this.post(movement.reference, () => captureEntry(movement, capture.capturedMinor));
  }

  /** Sets the refund aside unless an earlier event of the refund did, then its outcome's entry. */
  private refund(fact: RefundFact): void {
    const reserve = refundMovement(fact, 'reserve', 'refund.reserved');
    this.post(reserve.reference, () => refundReserveEntry(reserve, fact.amountMinor, this.fundsOf(fact)));
    if (fact.step === 'succeeded') {
      const paid = refundMovement(fact, 'paid', 'refund.paid');
      this.post(paid.reference, () => refundPaidEntry(paid, fact.amountMinor));
    } else if (fact.step === 'failed') {
      const returned = refundMovement(fact, 'returned', 'refund.returned');
      this.post(returned.reference, () => refundReturnedEntry(returned, fact.amountMinor, this.fundsOf(fact)));
    }
  }

  private post(reference: string, build: () => NewLedgerEntry): void {
    if (this.planned.has(reference)) return;
    const entry = build();
    this.planned.add(reference);
    this.entries.push(entry);
    for (const posting of entry.postings) {
      const field = FUNDS_OF_BUCKET[posting.bucket] as keyof MerchantFunds | undefined;
      const key = fundsKey(posting.ownerId, posting.currency);
      const funds = this.funds.get(key);
      if (field !== undefined && funds !== undefined) {
        this.funds.set(key, { ...funds, [field]: funds[field] + posting.amountMinor });
      }
    }
  }

  private fundsOf(fact: { merchantId: string; currency: string }): MerchantFunds {
    const funds = this.funds.get(fundsKey(fact.merchantId, fact.currency));
    if (funds === undefined) throw new Error(`the batch did not read the funds of ${fact.merchantId} in ${fact.currency}`);
    return funds;
  }
}

function refundMovement(fact: RefundFact, step: 'reserve' | 'paid' | 'returned', kind: string): Movement {
  return {
    reference: references.refund(fact.refundId, step),
    kind,
    merchantId: fact.merchantId,
    currency: fact.currency,
    metadata: { payment_refund_id: fact.refundId, payment_intent_id: fact.intentId },
  };
}
