import { LedgerJson, NewLedgerEntry } from '@paygrid/ledger';

/**
 * The posting rules of the payouts ledger (docs/payouts.md has a table per event): pure functions from a
 * business fact (and, where the split depends on it, the merchant's current funds) to one balanced
 * entry. Every rule moves money between the ledger accounts of ONE merchant in ONE currency, so entries
 * of different merchants never touch the same rows.
 *
 * Merchant buckets (guarded: never below zero):
 *   pending            captured, not yet settled
 *   available          settled: what payouts may draw on
 *   payout_reserved    payouts INITIATED (reserved when created)
 *   payout_in_transit  payouts PROCESSING at the bank rail
 *   payout_returned    payouts FAILED, waiting to be refunded
 *   refund_reserved    acquiring refunds requested, not yet paid out to the card network
 *   service_account    internal payouts delivered to the merchant's own service account
 *   fees               fees the platform earned (zero in the sandbox)
 * Counterparts (may go negative: the world outside the ledger, per merchant so merchants never share a row):
 *   card_network       what card networks owe for captures not yet settled (≤ 0)
 *   settlement_bank    the platform's bank: in at settlement (−), out at payouts and refunds (+)
 *   refund_advance     the platform's advance when a refund exceeds the merchant's funds (≤ 0);
 *                      repaid from available as soon as money becomes available
 */
export const MERCHANT_BUCKETS = [
  'pending',
  'available',
  'payout_reserved',
  'payout_in_transit',
  'payout_returned',
  'refund_reserved',
  'service_account',
  'fees',
] as const;
export const COUNTERPART_BUCKETS = ['card_network', 'settlement_bank', 'refund_advance'] as const;
export type Bucket = (typeof MERCHANT_BUCKETS)[number] | (typeof COUNTERPART_BUCKETS)[number];

/** What a split depends on: the merchant's balances in the entry's currency, read under lock. */
export interface MerchantFunds {
  pending: bigint;
  available: bigint;
  /** ≤ 0: what the merchant owes the platform for refunds it advanced. */
  refundAdvance: bigint;
}

export interface Movement {
  reference: string;
  kind: string;
  merchantId: string;
  currency: string;
  occurredAt?: Date;
  metadata?: { [key: string]: LedgerJson };
}

type Deltas = Partial<Record<Bucket, bigint>>;

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** One entry of one merchant and currency; buckets whose net change is zero are left out. */
export function entryOf(movement: Movement, deltas: Deltas): NewLedgerEntry {
  const postings = Object.entries(deltas)
    .filter(([, amount]) => amount !== undefined && amount !== 0n)
    .map(([bucket, amount]) => ({
      ownerId: movement.merchantId,
      currency: movement.currency,
      bucket,
      amountMinor: amount as bigint,
    }));
  return {
    reference: movement.reference,
    kind: movement.kind,
    occurredAt: movement.occurredAt,
    metadata: movement.metadata,
    postings,
  };
}

function add(deltas: Deltas, bucket: Bucket, amount: bigint): void {
  deltas[bucket] = (deltas[bucket] ?? 0n) + amount;
}

/**
 * Money that becomes available first repays what the platform advanced for refunds, as far as it goes.
 */
function repayAdvance(deltas: Deltas, availableAfter: bigint, refundAdvance: bigint): void {
  const repaid = min(-refundAdvance, availableAfter);
  if (repaid <= 0n) return;
  add(deltas, 'available', -repaid);
  add(deltas, 'refund_advance', repaid);
}

/** acquiring.payment_attempt.capture_requested: the captured amount is the merchant's, pending. */
export function captureEntry(movement: Movement, capturedMinor: bigint): NewLedgerEntry {
  return entryOf(movement, { card_network: -capturedMinor, pending: capturedMinor });
}

/**
 * acquiring.settlement.succeeded: the network pays the gross into the platform's bank; the merchant's
 * pending becomes available (net), the fee the platform's. What refunds already took out of pending is
 * not moved twice: at most the pending balance moves.
 */
export function settlementEntry(
  movement: Movement,
  settlement: { grossMinor: bigint; feeMinor: bigint },
  funds: MerchantFunds,
): NewLedgerEntry {
  const deltas: Deltas = { card_network: settlement.grossMinor, settlement_bank: -settlement.grossMinor };
  const moved = min(settlement.grossMinor, funds.pending);
  const fee = min(settlement.feeMinor, moved);
  add(deltas, 'pending', -moved);
  add(deltas, 'fees', fee);
  add(deltas, 'available', moved - fee);
  repayAdvance(deltas, funds.available + moved - fee, funds.refundAdvance);
  return entryOf(movement, deltas);
}

/**
 * acquiring.refund.created: the refund is set aside at once, from available first, then pending; what the
 * merchant's funds cannot cover the platform advances (refund_advance), so no bucket goes negative and
 * acquiring's refund is never blocked by the ledger.
 */
export function refundReserveEntry(movement: Movement, refundMinor: bigint, funds: MerchantFunds): NewLedgerEntry {
  const fromAvailable = min(refundMinor, funds.available);
  const fromPending = min(refundMinor - fromAvailable, funds.pending);
  const advanced = refundMinor - fromAvailable - fromPending;
  return entryOf(movement, {
    available: -fromAvailable,
    pending: -fromPending,
    refund_advance: -advanced,
    refund_reserved: refundMinor,
  });
}

/** acquiring.refund.succeeded: the refund leaves the platform's bank to the card network. */
export function refundPaidEntry(movement: Movement, refundMinor: bigint): NewLedgerEntry {
  return entryOf(movement, { refund_reserved: -refundMinor, settlement_bank: refundMinor });
}

/** Money set aside comes back to available, repaying any advance first. */
function backToAvailable(movement: Movement, from: Bucket, amountMinor: bigint, funds: MerchantFunds): NewLedgerEntry {
  const deltas: Deltas = { [from]: -amountMinor, available: amountMinor };
  repayAdvance(deltas, funds.available + amountMinor, funds.refundAdvance);
  return entryOf(movement, deltas);
}

/** acquiring.refund.failed: the refund's money comes back. */
export function refundReturnedEntry(movement: Movement, refundMinor: bigint, funds: MerchantFunds): NewLedgerEntry {
  return backToAvailable(movement, 'refund_reserved', refundMinor, funds);
}

/** Payout created (INITIATED): reserved from available; the ledger refuses it if available cannot cover it. */
export function payoutReserveEntry(movement: Movement, amountMinor: bigint): NewLedgerEntry {
  return entryOf(movement, { available: -amountMinor, payout_reserved: amountMinor });
}

/** INITIATED → PROCESSING: handed to the bank rail. */
export function payoutInTransitEntry(movement: Movement, amountMinor: bigint): NewLedgerEntry {
  return entryOf(movement, { payout_reserved: -amountMinor, payout_in_transit: amountMinor });
}

/**
 * PROCESSING → COMPLETED: to the settlement bank account (out of the platform's bank), or, internal, into
 * the merchant's own service account.
 */
export function payoutCompletedEntry(movement: Movement, amountMinor: bigint, destination: 'BANK_ACCOUNT' | 'INTERNAL'): NewLedgerEntry {
  const target: Bucket = destination === 'BANK_ACCOUNT' ? 'settlement_bank' : 'service_account';
  return entryOf(movement, { payout_in_transit: -amountMinor, [target]: amountMinor });
}

/** PROCESSING → FAILED: the bank returned it; held until refunded. */
export function payoutFailedEntry(movement: Movement, amountMinor: bigint): NewLedgerEntry {
  return entryOf(movement, { payout_in_transit: -amountMinor, payout_returned: amountMinor });
}

/** FAILED → FAILED_REFUNDED: the payout's money comes back. */
export function payoutRefundedEntry(movement: Movement, amountMinor: bigint, funds: MerchantFunds): NewLedgerEntry {
  return backToAvailable(movement, 'payout_returned', amountMinor, funds);
}
