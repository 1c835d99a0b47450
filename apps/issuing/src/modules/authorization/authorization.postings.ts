import { Injectable } from '@nestjs/common';
import { PostResult } from '@paygrid/ledger';
import { Executor } from '@paygrid/platform';
import { Buckets, issuingLedger } from '../balances/issuing-balances';

/**
 * Every posting a card transaction makes (docs/issuing.md, "Postings per transaction type"). The funding owner
 * is the card (its `available` balance), or the account for a one-time card (it draws on the issuing balance);
 * the held amount and the network's side always sit on the card. References derive from the transaction id,
 * so a step repeated after a crash moves nothing the second time.
 *
 * | step                     | from                         | to                           | reference                  |
 * |--------------------------|------------------------------|------------------------------|----------------------------|
 * | authorization approved   | funding available            | card authorization_held      | card_transaction:<id>:hold |
 * | reversal                 | card authorization_held      | funding available            | …:<auth id>:release        |
 * | clearing                 | card authorization_held      | card network_clearing        | …:<auth id>:clear          |
 * | refund, chargeback credit| card network_clearing        | funding available            | …:<id>:post                |
 * | chargeback debit         | funding available            | card network_clearing        | …:<id>:post                |
 */
export interface TransactionMoney {
  transactionId: string;
  cardId: string;
  fundingOwner: string;
  currency: string;
  amountMinor: bigint;
}

type Side = readonly [owner: 'card' | 'funding', bucket: string];
const FUNDING: Side = ['funding', Buckets.available];
const HELD: Side = ['card', Buckets.authorizationHeld];
const NETWORK: Side = ['card', Buckets.networkClearing];

@Injectable()
export class AuthorizationPostings {
  hold(executor: Executor, money: TransactionMoney) {
    return this.move(executor, money, 'hold', 'card.authorization.held', FUNDING, HELD);
  }
  release(executor: Executor, money: TransactionMoney) {
    return this.move(executor, money, 'release', 'card.authorization.released', HELD, FUNDING);
  }
  clear(executor: Executor, money: TransactionMoney) {
    return this.move(executor, money, 'clear', 'card.authorization.cleared', HELD, NETWORK);
  }
  /** Refunds and chargeback credits pay the cardholder back; a chargeback debit takes a credit back. */
  credit(executor: Executor, money: TransactionMoney, kind: string) {
    return this.move(executor, money, 'post', kind, NETWORK, FUNDING);
  }
  debit(executor: Executor, money: TransactionMoney, kind: string) {
    return this.move(executor, money, 'post', kind, FUNDING, NETWORK);
  }

  /** The funding balance once an entry was applied (what `card_available_balance` shows). */
  fundingAfter(result: PostResult, money: TransactionMoney): bigint {
    const line = result.entry.postings.find((posting) => posting.ownerId === money.fundingOwner && posting.bucket === Buckets.available);
    if (!line) throw new Error(`entry ${result.entry.reference} has no line on the funding balance`);
    return line.balanceAfterMinor;
  }

  fundingAvailable(executor: Executor, money: Pick<TransactionMoney, 'fundingOwner' | 'currency'>): Promise<bigint> {
    return issuingLedger.balance(executor, { ownerId: money.fundingOwner, currency: money.currency, bucket: Buckets.available });
  }

  private move(executor: Executor, money: TransactionMoney, step: string, kind: string, [fromOwner, fromBucket]: Side, [toOwner, toBucket]: Side) {
    const owner = (side: 'card' | 'funding') => (side === 'card' ? money.cardId : money.fundingOwner);
    return issuingLedger.post(executor, {
      reference: `card_transaction:${money.transactionId}:${step}`,
      kind,
      metadata: { transaction_id: money.transactionId, card_id: money.cardId },
      postings: [
        { ownerId: owner(fromOwner), currency: money.currency, bucket: fromBucket, amountMinor: -money.amountMinor },
        { ownerId: owner(toOwner), currency: money.currency, bucket: toBucket, amountMinor: money.amountMinor },
      ],
    });
  }
}
