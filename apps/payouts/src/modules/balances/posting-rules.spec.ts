import fc from 'fast-check';
import { NewLedgerEntry } from '@paygrid/ledger';
import {
  Bucket,
  captureEntry,
  COUNTERPART_BUCKETS,
  MERCHANT_BUCKETS,
  MerchantFunds,
  Movement,
  payoutCompletedEntry,
  payoutFailedEntry,
  payoutInTransitEntry,
  payoutRefundedEntry,
  payoutReserveEntry,
  refundPaidEntry,
  refundReserveEntry,
  refundReturnedEntry,
  settlementEntry,
} from './posting-rules';

/**
 * The posting rules against an in-memory model of one merchant's ledger in one currency: any sequence
 * of captures, settlements (in any order relative to their captures' events), refunds and payouts keeps
 * every entry balanced, never takes a guarded bucket below zero, keeps the advance and the network's
 * receivable at or below zero, and keeps the merchant's claim equal to what happened to its money.
 */
const MERCHANT = 'acct_1';
const move = (reference: string, kind = 'test.move'): Movement => ({ reference, kind, merchantId: MERCHANT, currency: 'USD' });

class ModelLedger {
  readonly balances = new Map<Bucket, bigint>();

  balance(bucket: Bucket): bigint {
    return this.balances.get(bucket) ?? 0n;
  }

  funds(): MerchantFunds {
    return { pending: this.balance('pending'), available: this.balance('available'), refundAdvance: this.balance('refund_advance') };
  }

  /** Applies the entry as the ledger does: all or nothing, refused if a guarded bucket would go negative. */
  post(entry: NewLedgerEntry): boolean {
    const sum = entry.postings.reduce((total, posting) => total + posting.amountMinor, 0n);
    expect(sum).toBe(0n);
    expect(entry.postings.length).toBeGreaterThanOrEqual(2);
    for (const posting of entry.postings) expect(posting.ownerId).toBe(MERCHANT);
    const after = new Map(this.balances);
    for (const posting of entry.postings) {
      after.set(posting.bucket as Bucket, (after.get(posting.bucket as Bucket) ?? 0n) + posting.amountMinor);
    }
    if (MERCHANT_BUCKETS.some((bucket) => (after.get(bucket) ?? 0n) < 0n)) return false;
    this.balances.clear();
    after.forEach((value, key) => this.balances.set(key, value));
    return true;
  }
}

type Step =
  | { kind: 'capture'; amount: bigint }
  | { kind: 'settle'; which: number; fee: bigint; eventsOutOfOrder: boolean }
  | { kind: 'refund'; amount: bigint }
  | { kind: 'finishRefund'; which: number; succeeded: boolean }
  | { kind: 'payout'; amount: bigint; internal: boolean }
  | { kind: 'advancePayout'; which: number; fails: boolean };

const amount = fc.bigInt({ min: 1n, max: 100_000n });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('capture' as const), amount }),
  fc.record({ kind: fc.constant('settle' as const), which: fc.nat(), fee: fc.bigInt({ min: 0n, max: 500n }), eventsOutOfOrder: fc.boolean() }),
  fc.record({ kind: fc.constant('refund' as const), amount }),
  fc.record({ kind: fc.constant('finishRefund' as const), which: fc.nat(), succeeded: fc.boolean() }),
  fc.record({ kind: fc.constant('payout' as const), amount, internal: fc.boolean() }),
  fc.record({ kind: fc.constant('advancePayout' as const), which: fc.nat(), fails: fc.boolean() }),
);

interface World {
  ledger: ModelLedger;
  captures: { id: number; amount: bigint; captured: boolean; settled: boolean }[];
  refunds: { id: number; amount: bigint; open: boolean }[];
  payouts: { id: number; amount: bigint; internal: boolean; status: string }[];
  captured: bigint;
  refundsKept: bigint;
  paidOut: bigint;
}

function run(steps: Step[]): World {
  const world: World = { ledger: new ModelLedger(), captures: [], refunds: [], payouts: [], captured: 0n, refundsKept: 0n, paidOut: 0n };
  const { ledger } = world;
  const must = (entry: NewLedgerEntry) => expect(ledger.post(entry)).toBe(true);
  for (const current of steps) {
    switch (current.kind) {
      case 'capture': {
        const id = world.captures.length;
        world.captures.push({ id, amount: current.amount, captured: true, settled: false });
        must(captureEntry(move(`capture:${id}`), current.amount));
        world.captured += current.amount;
        break;
      }
      case 'settle': {
        const open = world.captures.filter((capture) => !capture.settled);
        if (open.length === 0) {
          // A settlement whose capture event has not arrived yet: the handler posts the capture first.
          if (!current.eventsOutOfOrder) break;
          const id = world.captures.length;
          const gross = 1_000n + current.fee;
          world.captures.push({ id, amount: gross, captured: true, settled: false });
          must(captureEntry(move(`capture:${id}`), gross));
          world.captured += gross;
          open.push(world.captures[id]);
        }
        const target = open[current.which % open.length];
        const fee = current.fee > target.amount ? target.amount : current.fee;
        must(settlementEntry(move(`settle:${target.id}`), { grossMinor: target.amount, feeMinor: fee }, ledger.funds()));
        target.settled = true;
        break;
      }
      case 'refund': {
        const id = world.refunds.length;
        world.refunds.push({ id, amount: current.amount, open: true });
        must(refundReserveEntry(move(`refund:${id}:reserve`), current.amount, ledger.funds()));
        world.refundsKept += current.amount;
        break;
      }
      case 'finishRefund': {
        const open = world.refunds.filter((refund) => refund.open);
        if (open.length === 0) break;
        const target = open[current.which % open.length];
        target.open = false;
        if (current.succeeded) must(refundPaidEntry(move(`refund:${target.id}:paid`), target.amount));
        else {
          must(refundReturnedEntry(move(`refund:${target.id}:returned`), target.amount, ledger.funds()));
          world.refundsKept -= target.amount;
        }
        break;
      }
      case 'payout': {
        const id = world.payouts.length;
        const availableBefore = ledger.balance('available');
        const accepted = ledger.post(payoutReserveEntry(move(`payout:${id}:reserve`), current.amount));
        expect(accepted).toBe(current.amount <= availableBefore);
        if (accepted) world.payouts.push({ id, amount: current.amount, internal: current.internal, status: 'INITIATED' });
        break;
      }
      case 'advancePayout': {
        const open = world.payouts.filter((payout) => !['COMPLETED', 'FAILED_REFUNDED'].includes(payout.status));
        if (open.length === 0) break;
        const target = open[current.which % open.length];
        const ref = (suffix: string) => move(`payout:${target.id}:${suffix}`);
        if (target.status === 'INITIATED') {
          must(payoutInTransitEntry(ref('processing'), target.amount));
          target.status = 'PROCESSING';
        } else if (target.status === 'PROCESSING' && current.fails) {
          must(payoutFailedEntry(ref('failed'), target.amount));
          target.status = 'FAILED';
        } else if (target.status === 'PROCESSING') {
          must(payoutCompletedEntry(ref('completed'), target.amount, target.internal ? 'INTERNAL' : 'BANK_ACCOUNT'));
          target.status = 'COMPLETED';
          world.paidOut += target.amount;
        } else {
          must(payoutRefundedEntry(ref('refunded'), target.amount, ledger.funds()));
          target.status = 'FAILED_REFUNDED';
        }
        break;
      }
    }
    assertInvariants(world);
  }
  return world;
}

function assertInvariants(world: World): void {
  const { ledger } = world;
  for (const bucket of MERCHANT_BUCKETS) expect(ledger.balance(bucket)).toBeGreaterThanOrEqual(0n);
  expect(ledger.balance('refund_advance')).toBeLessThanOrEqual(0n);
  expect(ledger.balance('card_network')).toBeLessThanOrEqual(0n);
  const total = [...MERCHANT_BUCKETS, ...COUNTERPART_BUCKETS].reduce((sum, bucket) => sum + ledger.balance(bucket), 0n);
  expect(total).toBe(0n);
  // The network owes exactly the captures not yet settled.
  const unsettled = world.captures.filter((capture) => !capture.settled).reduce((sum, capture) => sum + capture.amount, 0n);
  expect(-ledger.balance('card_network')).toBe(unsettled);
  // Money set aside matches what is open: refunds in flight, payouts per status.
  const openRefunds = world.refunds.filter((refund) => refund.open).reduce((sum, refund) => sum + refund.amount, 0n);
  expect(ledger.balance('refund_reserved')).toBe(openRefunds);
  const payoutsIn = (status: string) => world.payouts.filter((payout) => payout.status === status).reduce((sum, payout) => sum + payout.amount, 0n);
  expect(ledger.balance('payout_reserved')).toBe(payoutsIn('INITIATED'));
  expect(ledger.balance('payout_in_transit')).toBe(payoutsIn('PROCESSING'));
  expect(ledger.balance('payout_returned')).toBe(payoutsIn('FAILED'));
  // The merchant's claim on the platform: what it captured, less fees, refunds kept and payouts completed.
  const claim =
    ledger.balance('pending') +
    ledger.balance('available') +
    ledger.balance('refund_advance') +
    ledger.balance('payout_reserved') +
    ledger.balance('payout_in_transit') +
    ledger.balance('payout_returned');
  expect(claim).toBe(world.captured - ledger.balance('fees') - world.refundsKept - world.paidOut);
}

describe('posting rules', () => {
  it('keep every entry balanced, guarded buckets non-negative and the merchant claim exact, for any sequence', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        run(steps);
      }),
      { numRuns: 400 },
    );
  });

  it('refuse a payout above the available balance and accept one it covers', () => {
    const world = run([
      { kind: 'capture', amount: 1000n },
      { kind: 'settle', which: 0, fee: 0n, eventsOutOfOrder: false },
      { kind: 'payout', amount: 1001n, internal: false },
      { kind: 'payout', amount: 1000n, internal: false },
    ]);
    expect(world.payouts).toHaveLength(1);
    expect(world.ledger.balance('available')).toBe(0n);
    expect(world.ledger.balance('payout_reserved')).toBe(1000n);
  });

  it('take a refund from available, then pending, then advance the rest, and repay the advance from the next settlement', () => {
    const ledger = new ModelLedger();
    ledger.post(captureEntry(move('c1'), 300n));
    ledger.post(settlementEntry(move('s1'), { grossMinor: 300n, feeMinor: 0n }, ledger.funds()));
    ledger.post(captureEntry(move('c2'), 200n));
    const reserve = refundReserveEntry(move('r1'), 600n, ledger.funds());
    expect(Object.fromEntries(reserve.postings.map((posting) => [posting.bucket, posting.amountMinor]))).toEqual({
      available: -300n,
      pending: -200n,
      refund_advance: -100n,
      refund_reserved: 600n,
    });
    ledger.post(reserve);
    ledger.post(captureEntry(move('c3'), 250n));
    ledger.post(settlementEntry(move('s3'), { grossMinor: 250n, feeMinor: 0n }, ledger.funds()));
    expect(ledger.balance('refund_advance')).toBe(0n);
    expect(ledger.balance('available')).toBe(150n);
  });

  it('moves no more out of pending at settlement than refunds left there', () => {
    const ledger = new ModelLedger();
    ledger.post(captureEntry(move('c1'), 100n));
    ledger.post(refundReserveEntry(move('r1'), 40n, ledger.funds()));
    const settle = settlementEntry(move('s1'), { grossMinor: 100n, feeMinor: 0n }, ledger.funds());
    expect(ledger.post(settle)).toBe(true);
    expect(ledger.balance('pending')).toBe(0n);
    expect(ledger.balance('available')).toBe(60n);
  });

  it('routes a completed payout to the bank, or internally to the service account', () => {
    const bank = payoutCompletedEntry(move('p1'), 500n, 'BANK_ACCOUNT');
    const internal = payoutCompletedEntry(move('p2'), 500n, 'INTERNAL');
    expect(bank.postings.map((posting) => posting.bucket).sort()).toEqual(['payout_in_transit', 'settlement_bank']);
    expect(internal.postings.map((posting) => posting.bucket).sort()).toEqual(['payout_in_transit', 'service_account']);
  });
});
