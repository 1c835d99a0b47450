import { currencyExponent, formatAmount } from '@paygrid/money';
import { PayoutStatus } from '@paygrid/contracts';
import { PayoutTransition } from './payout.states';

/**
 * The sandbox bank rail's decisions (decisions §6): a payout moves on by itself after configured delays,
 * and fails, to be refunded, when its amount ends in `.13` (1.13, 250.13 USD; 0.130 KWD), or, in a
 * currency without decimals, in 13 (113 JPY). Pure, so the trigger is tested without a clock.
 */
export interface RailDelays {
  processingMs: number;
  settleMs: number;
  refundMs: number;
}

export interface RailStep {
  event: PayoutTransition;
  /** How long until the step after this one; null when this step is final. */
  nextInMs: number | null;
  failureReason?: string;
}

export function railFails(amountMinor: bigint, currency: string): boolean {
  if (currencyExponent(currency) === 0) return amountMinor.toString().endsWith('13');
  return formatAmount(amountMinor, currency).replace(/0+$/, '').endsWith('.13');
}

/** The step a due payout in `status` takes, or undefined when it has none (final). */
export function nextRailStep(status: PayoutStatus, amountMinor: bigint, currency: string, delays: RailDelays): RailStep | undefined {
  switch (status) {
    case 'INITIATED':
      return { event: 'PROCESS', nextInMs: delays.settleMs };
    case 'PROCESSING':
      return railFails(amountMinor, currency)
        ? { event: 'FAIL', nextInMs: delays.refundMs, failureReason: 'bank_rejected' }
        : { event: 'COMPLETE', nextInMs: null };
    case 'FAILED':
      return { event: 'REFUND', nextInMs: null };
    case 'COMPLETED':
    case 'FAILED_REFUNDED':
      return undefined;
  }
}
