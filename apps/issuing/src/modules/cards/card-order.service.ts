import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import {
  Actor,
  CardAmountPayload,
  CardEventData,
  CardOrderEventData,
  CardOrderView,
  ELEVATION_DAYS,
  ELEVATION_MAX_MAJOR,
  ElevateLimitPayload,
  IssuingEventName,
  IssuingEvents,
} from '@paygrid/contracts';
import { parseMajorNumber, toMajorNumber } from '@paygrid/money';
import { LOGGER, runInTransaction, TransactionContext } from '@paygrid/platform';
import { CardErrors } from '../../common/issuing-errors';
import { recordIssuingEvent } from '../../common/issuing-events';
import { InsufficientFundsError, IssuingBalances, OrderMovement } from '../balances/issuing-balances';
import { CardholderRepository } from '../cardholders/cardholder.repository';
import { CardOrder, CardOrderRepository } from './card-order.repository';
import { isExpired } from './card-number';
import { presentOrder } from './card.presenter';
import { CardRepository } from './card.repository';
import { sandboxFails } from './card.rules';
import { CardService } from './card.service';
import { Card } from './card.types';

/**
 * Card orders (wire-compat §11.9, decisions §7): recharge and withdraw move money between the account's issuing
 * balance and the card's as double-entry postings: accepted orders reserve the money at once (so concurrent
 * withdrawals can never overdraw a card), and the `card_order` job settles or releases it. The same job
 * completes create, update and limit-elevation orders. PENDING → PROCESSING → SUCCESS | FAILED, each order's
 * final state announced once (`card.<type>.succeeded` / `.failed`, with card_available_balance).
 *
 * Sandbox trigger: an amount (card_limit, per-transaction limit) whose cents are 13 fails the order.
 */
export class WaitingForKyc extends Error {}

const FINAL_EVENTS: Record<Exclude<CardOrder['orderType'], 'CARD_STATUS_UPDATE'>, [IssuingEventName, IssuingEventName]> = {
  CARD_CREATE: [IssuingEvents.cardCreateSucceeded, IssuingEvents.cardCreateFailed],
  CARD_UPDATE: [IssuingEvents.cardUpdateSucceeded, IssuingEvents.cardUpdateFailed],
  CARD_RECHARGE: [IssuingEvents.cardRechargeSucceeded, IssuingEvents.cardRechargeFailed],
  CARD_WITHDRAW: [IssuingEvents.cardWithdrawSucceeded, IssuingEvents.cardWithdrawFailed],
  CARD_ELEVATE_LIMIT: [IssuingEvents.cardElevateLimitSucceeded, IssuingEvents.cardElevateLimitFailed],
};
const DAY_MS = 86_400_000;

@Injectable()
export class CardOrderService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cards: CardRepository,
    private readonly orders: CardOrderRepository,
    private readonly cardholders: CardholderRepository,
    private readonly cardService: CardService,
    private readonly balances: IssuingBalances,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  recharge(tx: TransactionContext, actor: Actor, payload: CardAmountPayload): Promise<CardOrderView> {
    return this.moveMoney(tx, actor, payload, 'CARD_RECHARGE');
  }

  withdraw(tx: TransactionContext, actor: Actor, payload: CardAmountPayload): Promise<CardOrderView> {
    return this.moveMoney(tx, actor, payload, 'CARD_WITHDRAW');
  }

  async elevateLimit(tx: TransactionContext, actor: Actor, payload: ElevateLimitPayload): Promise<CardOrderView> {
    const card = await this.cardService.lockCard(tx.manager, actor, payload.card_id);
    if (card.status !== 'ACTIVE') throw CardErrors.notActive();
    if (card.usageType === 'ONE_TIME') throw CardErrors.oneTimeCard();
    const maximum = ELEVATION_MAX_MAJOR[card.currency];
    const amountMinor = parseMajorNumber(payload.per_transaction_limit);
    if (amountMinor > BigInt(maximum) * 100n) throw CardErrors.elevationTooHigh(maximum, card.currency);
    if (await this.orders.elevationInEffect(tx.manager, card.cardId)) throw CardErrors.elevationInEffect();
    const order = await this.cardService.placeOrder(tx, card, 'CARD_ELEVATE_LIMIT', amountMinor, {
      duration_in_days: payload.duration_in_days ?? ELEVATION_DAYS.default,
    });
    return presentOrder(order);
  }

  async retrieveOrder(actor: Actor, cardOrderId: string): Promise<CardOrderView> {
    const order = await this.orders.find(this.dataSource, actor.account_id, cardOrderId);
    if (!order) throw CardErrors.cardOrderNotFound();
    return presentOrder(order);
  }

  /** The `card_order` job: start (PENDING → PROCESSING), then complete, each in its own transaction. */
  async process(cardOrderId: string): Promise<void> {
    const started = await runInTransaction(this.dataSource, this.logger, async (tx) => {
      const order = await this.orders.findById(tx.manager, cardOrderId, { lock: true });
      if (!order || (order.status !== 'PENDING' && order.status !== 'PROCESSING')) return false;
      if (order.orderType === 'CARD_CREATE') await this.requireDecidedKyc(tx, order);
      if (order.status === 'PENDING') await this.orders.transition(tx.manager, cardOrderId, 'START');
      return true;
    });
    if (!started) return;
    await runInTransaction(this.dataSource, this.logger, (tx) => this.complete(tx, cardOrderId));
  }

  private async moveMoney(tx: TransactionContext, actor: Actor, payload: CardAmountPayload, orderType: 'CARD_RECHARGE' | 'CARD_WITHDRAW') {
    const card = await this.cards.find(tx.manager, actor.account_id, payload.card_id);
    if (!card) throw CardErrors.notFound();
    if (card.usageType === 'ONE_TIME') throw CardErrors.oneTimeCard();
    if (card.status !== 'ACTIVE') throw CardErrors.notActive();
    if (isExpired(card)) throw CardErrors.invalidExpiryDate();
    const amountMinor = parseMajorNumber(payload.amount);
    const order = await this.cardService.placeOrder(tx, card, orderType, amountMinor);
    const movement = this.movementOf(order);
    try {
      if (orderType === 'CARD_RECHARGE') await this.balances.reserveRecharge(tx.manager, movement);
      else await this.balances.reserveWithdraw(tx.manager, movement);
    } catch (error) {
      if (!(error instanceof InsufficientFundsError)) throw error;
      throw orderType === 'CARD_RECHARGE' ? CardErrors.insufficientBalance() : CardErrors.availableInsufficient();
    }
    return presentOrder(order);
  }

  /** A create order waits for its cardholder's KYC (one-step issuing, or a supplement that reopened review). */
  private async requireDecidedKyc(tx: TransactionContext, order: CardOrder): Promise<void> {
    const card = await this.cards.findById(tx.manager, order.cardId);
    const cardholder = card?.cardholderId ? await this.cardholders.findById(tx.manager, card.cardholderId) : undefined;
    if (cardholder?.status === 'PENDING') throw new WaitingForKyc(`card order ${order.cardOrderId} waits for the cardholder's KYC review`);
  }

  private async complete(tx: TransactionContext, cardOrderId: string): Promise<void> {
    const order = await this.orders.findById(tx.manager, cardOrderId, { lock: true });
    if (!order || order.status !== 'PROCESSING' || order.orderType === 'CARD_STATUS_UPDATE') return;
    const card = await this.cards.findById(tx.manager, order.cardId, { lock: true });
    if (!card) throw new Error(`card ${order.cardId} of order ${order.cardOrderId} is missing`);
    const failure = await this.failureOf(tx, order, card);
    const finished = await this.orders.transition(tx.manager, cardOrderId, failure ? 'FAIL' : 'SUCCEED', {
      failure_reason: failure,
      ...(order.orderType === 'CARD_ELEVATE_LIMIT' && !failure
        ? { effective_until: new Date(Date.now() + Number(order.details.duration_in_days ?? 14) * DAY_MS) }
        : {}),
    });
    const after = await this.applyEffect(tx, finished, card, failure === null);
    await this.announce(tx, finished, after);
  }

  private async failureOf(tx: TransactionContext, order: CardOrder, card: Card): Promise<string | null> {
    switch (order.orderType) {
      case 'CARD_CREATE': {
        const cardholder = card.cardholderId ? await this.cardholders.findById(tx.manager, card.cardholderId) : undefined;
        if (cardholder?.status === 'FAILED') return 'cardholder KYC failed';
        return sandboxFails(order.amountMinor) ? 'sandbox: card_limit cents 13' : null;
      }
      case 'CARD_RECHARGE':
      case 'CARD_WITHDRAW':
        if (order.orderType === 'CARD_RECHARGE' && card.status !== 'ACTIVE') return `card is ${card.status}`;
        return sandboxFails(order.amountMinor) ? 'sandbox: amount cents 13' : null;
      case 'CARD_UPDATE':
        if (!['PENDING', 'ACTIVE', 'FROZEN'].includes(card.status)) return `card is ${card.status}`;
        return 'card_limit_minor' in (order.details.changes as Record<string, unknown>) && sandboxFails(order.amountMinor)
          ? 'sandbox: card_limit cents 13'
          : null;
      case 'CARD_ELEVATE_LIMIT':
        if (card.status !== 'ACTIVE') return `card is ${card.status}`;
        return sandboxFails(order.amountMinor) ? 'sandbox: per_transaction_limit cents 13' : null;
      default:
        return null;
    }
  }

  /** What a finished order does to the card and the money. */
  private async applyEffect(tx: TransactionContext, order: CardOrder, card: Card, succeeded: boolean): Promise<Card> {
    const movement = this.movementOf(order);
    switch (order.orderType) {
      case 'CARD_CREATE':
        if (!succeeded) return this.cards.transition(tx.manager, card.cardId, 'FAIL');
        if (card.formFactor === 'VIRTUAL') return this.cards.transition(tx.manager, card.cardId, 'ISSUE', { issued_at: new Date() });
        return this.cards.setFields(tx.manager, card.cardId, { issued_at: new Date() });
      case 'CARD_RECHARGE':
        await (succeeded ? this.balances.settleRecharge(tx.manager, movement) : this.balances.releaseRecharge(tx.manager, movement));
        return card;
      case 'CARD_WITHDRAW':
        await (succeeded ? this.balances.settleWithdraw(tx.manager, movement) : this.balances.releaseWithdraw(tx.manager, movement));
        return card;
      case 'CARD_UPDATE':
        return succeeded ? this.cards.setFields(tx.manager, card.cardId, order.details.changes as Record<string, unknown>) : card;
      default:
        return card;
    }
  }

  private async announce(tx: TransactionContext, order: CardOrder, card: Card): Promise<void> {
    const [succeeded, failed] = FINAL_EVENTS[order.orderType as keyof typeof FINAL_EVENTS];
    const eventName = order.status === 'SUCCESS' ? succeeded : failed;
    if (order.orderType === 'CARD_CREATE' || order.orderType === 'CARD_UPDATE') {
      const view = await this.cardService.view(tx.manager, card, null);
      await recordIssuingEvent<CardEventData>(tx.manager, card, eventName, card.cardId, {
        ...view,
        card_order_id: order.cardOrderId,
        order_status: order.status,
        card_available_balance: view.available_balance,
      });
      return;
    }
    const available = await this.balances.cardAvailable(tx.manager, card.cardId, card.currency);
    await recordIssuingEvent<CardOrderEventData>(tx.manager, card, eventName, order.cardOrderId, {
      ...presentOrder(order),
      ...(order.effectiveUntil ? { effective_until: order.effectiveUntil.toISOString() } : {}),
      card_available_balance: toMajorNumber(available),
    });
  }

  private movementOf(order: CardOrder): OrderMovement {
    return { orderId: order.cardOrderId, accountId: order.accountId, cardId: order.cardId, currency: order.currency, amountMinor: order.amountMinor };
  }
}

