import { Injectable, Module } from '@nestjs/common';
import { InsufficientFundsError, Ledger } from '@paygrid/ledger';
import { Executor, rowsOf } from '@paygrid/platform';

/**
 * The issuing money (docs/issuing.md, "Money"): every account's issuing balance and every card's balance are
 * ledger accounts in the issuing database (libs/ledger), and every movement is one balanced entry posted in the
 * transaction of the state change it belongs to, once per reference. Part 2 (balances API, transfers,
 * authorisations) adds buckets and entries to the same ledger.
 *
 * | owner   | bucket             | holds                                                              |
 * |---------|--------------------|--------------------------------------------------------------------|
 * | account | available          | the account's issuing balance                                      |
 * | account | recharge_in_flight | recharges accepted, not yet on the card                            |
 * | account | sandbox_funding    | counterpart of sandbox funding (may go negative: outside money)   |
 * | card    | available          | the card's available balance                                       |
 * | card    | withdraw_in_flight | withdrawals accepted, not yet back on the issuing balance          |
 * | account | transfer_in_flight | transfers accepted from this account, not yet on the destination   |
 *
 * Every guarded bucket refuses to go below zero, even under concurrency (the ledger's conditional upsert), so
 * two racing withdrawals can never overdraw a card.
 */
export const Buckets = {
  available: 'available',
  rechargeInFlight: 'recharge_in_flight',
  withdrawInFlight: 'withdraw_in_flight',
  sandboxFunding: 'sandbox_funding',
  transferInFlight: 'transfer_in_flight',
  /** Card transactions (modules/authorization): approved authorizations not yet cleared or reversed. */
  authorizationHeld: 'authorization_held',
  /** Card transactions: the card network's side (cleared spend, refunds, chargebacks); may go negative. */
  networkClearing: 'network_clearing',
} as const;

export const issuingLedger = new Ledger({ negativeBuckets: [Buckets.sandboxFunding, Buckets.networkClearing] });

/** A transfer between two issuing balances (docs/issuing.md, "Transfers"). */
export interface TransferMovement {
  transferId: string;
  sourceAccountId: string;
  destinationAccountId: string;
  currency: string;
  amountMinor: bigint;
}

export interface OrderMovement {
  orderId: string;
  accountId: string;
  cardId: string;
  currency: string;
  amountMinor: bigint;
}

/** Thrown when a guarded balance cannot cover a movement; the transaction must roll back. */
export { InsufficientFundsError };

@Injectable()
export class IssuingBalances {
  fundSandbox(executor: Executor, accountId: string, currency: string, amountMinor: bigint) {
    return issuingLedger.post(executor, {
      reference: `sandbox-funding:${accountId}:${currency}`,
      kind: 'issuing.sandbox_funding',
      postings: [
        { ownerId: accountId, currency, bucket: Buckets.available, amountMinor },
        { ownerId: accountId, currency, bucket: Buckets.sandboxFunding, amountMinor: -amountMinor },
      ],
    });
  }

  /** A simulated deposit (sandbox): outside money onto the account's issuing balance, once per deposit. */
  deposit(executor: Executor, deposit: { depositId: string; accountId: string; currency: string; amountMinor: bigint }) {
    return issuingLedger.post(executor, {
      reference: `issuing_deposit:${deposit.depositId}`,
      kind: 'issuing.deposit.simulated',
      metadata: { deposit_id: deposit.depositId },
      postings: [
        { ownerId: deposit.accountId, currency: deposit.currency, bucket: Buckets.available, amountMinor: deposit.amountMinor },
        { ownerId: deposit.accountId, currency: deposit.currency, bucket: Buckets.sandboxFunding, amountMinor: -deposit.amountMinor },
      ],
    });
  }

  /** Transfer accepted: the source's issuing balance pays into its in-flight bucket (refused if it cannot). */
  reserveTransfer(executor: Executor, move: TransferMovement) {
    return this.transferStep(executor, move, 'reserve', [move.sourceAccountId, Buckets.available], [move.sourceAccountId, Buckets.transferInFlight]);
  }
  /** Transfer completed: one entry takes it from the source's in-flight bucket onto the destination's balance. */
  settleTransfer(executor: Executor, move: TransferMovement) {
    return this.transferStep(executor, move, 'settle', [move.sourceAccountId, Buckets.transferInFlight], [move.destinationAccountId, Buckets.available]);
  }
  releaseTransfer(executor: Executor, move: TransferMovement) {
    return this.transferStep(executor, move, 'release', [move.sourceAccountId, Buckets.transferInFlight], [move.sourceAccountId, Buckets.available]);
  }

  /** Recharge accepted: the issuing balance pays into the in-flight bucket (refused if it cannot). */
  reserveRecharge(executor: Executor, move: OrderMovement) {
    return this.move(executor, move, 'reserve', 'card.recharge.reserved', [move.accountId, Buckets.available], [move.accountId, Buckets.rechargeInFlight]);
  }
  settleRecharge(executor: Executor, move: OrderMovement) {
    return this.move(executor, move, 'settle', 'card.recharge.settled', [move.accountId, Buckets.rechargeInFlight], [move.cardId, Buckets.available]);
  }
  releaseRecharge(executor: Executor, move: OrderMovement) {
    return this.move(executor, move, 'release', 'card.recharge.released', [move.accountId, Buckets.rechargeInFlight], [move.accountId, Buckets.available]);
  }

  /** Withdraw accepted: the card's balance pays into its in-flight bucket (refused if it cannot). */
  reserveWithdraw(executor: Executor, move: OrderMovement) {
    return this.move(executor, move, 'reserve', 'card.withdraw.reserved', [move.cardId, Buckets.available], [move.cardId, Buckets.withdrawInFlight]);
  }
  settleWithdraw(executor: Executor, move: OrderMovement) {
    return this.move(executor, move, 'settle', 'card.withdraw.settled', [move.cardId, Buckets.withdrawInFlight], [move.accountId, Buckets.available]);
  }
  releaseWithdraw(executor: Executor, move: OrderMovement) {
    return this.move(executor, move, 'release', 'card.withdraw.released', [move.cardId, Buckets.withdrawInFlight], [move.cardId, Buckets.available]);
  }

  /** A card that ends (cancelled, lost, stolen) gives what is left on it back to the issuing balance. */
  async sweepCard(executor: Executor, card: { cardId: string; accountId: string; currency: string }, reason: string): Promise<void> {
    const left = await issuingLedger.balance(executor, { ownerId: card.cardId, currency: card.currency, bucket: Buckets.available });
    if (left <= 0n) return;
    await issuingLedger.post(executor, {
      reference: `card:${card.cardId}:sweep`,
      kind: 'card.closed.swept',
      metadata: { reason },
      postings: [
        { ownerId: card.cardId, currency: card.currency, bucket: Buckets.available, amountMinor: -left },
        { ownerId: card.accountId, currency: card.currency, bucket: Buckets.available, amountMinor: left },
      ],
    });
  }

  cardAvailable(executor: Executor, cardId: string, currency: string): Promise<bigint> {
    return issuingLedger.balance(executor, { ownerId: cardId, currency, bucket: Buckets.available });
  }

  accountAvailable(executor: Executor, accountId: string, currency: string): Promise<bigint> {
    return issuingLedger.balance(executor, { ownerId: accountId, currency, bucket: Buckets.available });
  }

  /** Available balances of many cards in one query (lists). */
  async cardsAvailable(executor: Executor, cardIds: string[]): Promise<Map<string, bigint>> {
    if (cardIds.length === 0) return new Map();
    const rows = rowsOf<{ owner_id: string; balance: string }>(
      await executor.query(`SELECT owner_id, balance FROM ledger_accounts WHERE owner_id = ANY($1) AND bucket = $2`, [cardIds, Buckets.available]),
    );
    return new Map(rows.map((row) => [row.owner_id, BigInt(row.balance)]));
  }

  private transferStep(
    executor: Executor,
    move: TransferMovement,
    step: 'reserve' | 'settle' | 'release',
    [fromOwner, fromBucket]: [string, string],
    [toOwner, toBucket]: [string, string],
  ) {
    return issuingLedger.post(executor, {
      reference: `issuing_transfer:${move.transferId}:${step}`,
      kind: `issuing.transfer.${step === 'reserve' ? 'reserved' : step === 'settle' ? 'settled' : 'released'}`,
      metadata: { transfer_id: move.transferId },
      postings: [
        { ownerId: fromOwner, currency: move.currency, bucket: fromBucket, amountMinor: -move.amountMinor },
        { ownerId: toOwner, currency: move.currency, bucket: toBucket, amountMinor: move.amountMinor },
      ],
    });
  }

  private move(
    executor: Executor,
    move: OrderMovement,
    step: string,
    kind: string,
    [fromOwner, fromBucket]: [string, string],
    [toOwner, toBucket]: [string, string],
  ) {
    return issuingLedger.post(executor, {
      reference: `card_order:${move.orderId}:${step}`,
      kind,
      metadata: { card_order_id: move.orderId, card_id: move.cardId },
      postings: [
        { ownerId: fromOwner, currency: move.currency, bucket: fromBucket, amountMinor: -move.amountMinor },
        { ownerId: toOwner, currency: move.currency, bucket: toBucket, amountMinor: move.amountMinor },
      ],
    });
  }
}

@Module({ providers: [IssuingBalances], exports: [IssuingBalances] })
export class BalancesModule {}
