import { randomInt } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import {
  Actor,
  AuthorizationDecisionRequest,
  IssuingTransactionEventName,
  IssuingTransactionEvents,
  SimulateAuthorizationPayload,
  SimulateChargebackPayload,
  SimulatedTransactionView,
  SimulateReturnPayload,
  SpendingControlInput,
} from '@paygrid/contracts';
import { uuidV4 } from '@paygrid/ids';
import { InsufficientFundsError } from '@paygrid/ledger';
import { parseMajorNumber, toMajorNumber } from '@paygrid/money';
import { DurableJobs, JobRunInfo, LOGGER, runInTransaction, StagedContext, TransactionContext } from '@paygrid/platform';
import { ISSUING_CONFIG, IssuingConfig } from '../../config';
import { CardErrors } from '../../common/issuing-errors';
import { CardRepository } from '../cards/card.repository';
import { CardService } from '../cards/card.service';
import { Card } from '../cards/card.types';
import { Decision, DecisionService } from '../decisions/decision.service';
import { TransactionErrors } from '../transactions/card-transaction.errors';
import { recordTransactionEvent } from '../transactions/card-transaction.events';
import { majorString, presentSimulated } from '../transactions/card-transaction.presenter';
import { CardTransactionRepository, WindowSpend } from '../transactions/card-transaction.repository';
import { CardTransaction } from '../transactions/card-transaction.types';
import { AuthorizationPostings, TransactionMoney } from './authorization.postings';
import { AuthorizationAttempt, channelOf, declineByCard, declineBySpend, isValidMcc, needsSpend, spendWindows } from './authorization.rules';

/**
 * The authorization path (docs/issuing.md "Card transactions"), driven by the sandbox simulators as a network
 * message would drive it. An authorization is decided under the card's row lock (so racing authorizations of one
 * card are decided one after the other against the spend and money the previous ones left), and an approved one
 * holds its amount at once, in the same transaction as its row, its event and its clearing job. The account's
 * decision endpoint is asked before that transaction opens. DECLINED is an outcome, stored and announced,
 * never a refusal; refusals (bad MCC, unknown channel, unknown card) store nothing.
 */
export const CLEARING_JOB = 'card_authorization_clearing';
const HOLD_SAVEPOINT = 'authorization_hold';
const SIMULATED_NETWORK_DECLINE = 'declined by the card network (simulated)';
const CANCELLABLE = ['ACTIVE', 'FROZEN', 'BLOCKED'];

interface ReturnKind {
  type: 'REFUND' | 'CHARGEBACK_CREDIT' | 'CHARGEBACK_DEBIT';
  event: IssuingTransactionEventName;
  what: string;
}
const RETURNS = {
  refund: { type: 'REFUND', event: IssuingTransactionEvents.refund, what: 'refund' },
  credit: { type: 'CHARGEBACK_CREDIT', event: IssuingTransactionEvents.chargebackCredit, what: 'charge back' },
  debit: { type: 'CHARGEBACK_DEBIT', event: IssuingTransactionEvents.chargebackDebit, what: 'debit a chargeback of' },
} as const satisfies Record<string, ReturnKind>;

@Injectable()
export class AuthorizationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cards: CardRepository,
    private readonly cardService: CardService,
    private readonly transactions: CardTransactionRepository,
    private readonly postings: AuthorizationPostings,
    private readonly decisions: DecisionService,
    private readonly jobs: DurableJobs,
    @Inject(ISSUING_CONFIG) private readonly config: Pick<IssuingConfig, 'AUTH_CLEARING_DELAY_MS'>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async authorize(context: StagedContext, actor: Actor, payload: SimulateAuthorizationPayload): Promise<SimulatedTransactionView> {
    if (!isValidMcc(payload.merchant_category_code)) throw TransactionErrors.mccError();
    const channel = channelOf(payload.channel);
    if (!channel) throw TransactionErrors.invalidChannel();
    const attempt: AuthorizationAttempt = {
      amountMinor: parseMajorNumber(payload.transaction_amount),
      currency: payload.transaction_currency,
      mcc: payload.merchant_category_code,
      channel,
    };
    const transactionId = uuidV4();
    // Outside any transaction: the endpoint may take seconds, and no row lock may wait on it.
    const endpoint = payload.transaction_status === 'APPROVED' ? await this.decisions.endpointOf(actor.account_id) : undefined;
    let decision: Decision | null = null;
    if (endpoint) {
      const card = await this.cards.find(this.dataSource, actor.account_id, payload.card_id);
      if (!card) throw CardErrors.notFound();
      if (declineByCard(card, attempt) === null) decision = await this.decisions.ask(endpoint, await this.decisionRequest(transactionId, card, attempt, payload));
    }
    const { result } = await context.complete((tx) => this.decideAndRecord(tx, actor, transactionId, payload.card_id, attempt, payload, decision));
    return result;
  }

  async reverse(tx: TransactionContext, actor: Actor, transactionId: string): Promise<SimulatedTransactionView> {
    const authorization = await this.transactions.find(tx.manager, actor.account_id, transactionId, { lock: true });
    if (!authorization) throw TransactionErrors.notFound();
    if (authorization.type !== 'AUTHORIZATION' || authorization.holdState !== 'HELD') throw TransactionErrors.reversalError();
    const money = moneyOf(authorization);
    const posted = await this.postings.release(tx.manager, money);
    await this.transactions.moveHold(tx.manager, authorization.transactionId, 'HELD', 'REVERSED', false);
    const reversal = await this.transactions.insert(tx.manager, {
      ...followUpOf(authorization, 'REVERSAL', authorization.billingAmountMinor),
      status: 'REVERSED',
      cardAvailableMinor: this.postings.fundingAfter(posted, money),
    });
    await recordTransactionEvent(tx.manager, reversal, IssuingTransactionEvents.reversal);
    return presentSimulated(reversal);
  }

  refund(tx: TransactionContext, actor: Actor, payload: SimulateReturnPayload): Promise<SimulatedTransactionView> {
    return this.returnMoney(tx, actor, payload, RETURNS.refund);
  }

  chargeback(tx: TransactionContext, actor: Actor, payload: SimulateChargebackPayload): Promise<SimulatedTransactionView> {
    return this.returnMoney(tx, actor, payload, payload.chargeback_type === 'CREDIT' ? RETURNS.credit : RETURNS.debit);
  }

  /** The clearing job: the hold posts to the network (once; a reversed or cleared one is left alone). */
  /** The clearing job: the hold becomes a clearing, with the run's completion, in one transaction. */
  async clear(transactionId: string, run?: JobRunInfo): Promise<void> {
    await runInTransaction(this.dataSource, this.logger, async (tx) => {
      const authorization = await this.transactions.findById(tx.manager, transactionId, { lock: true });
      if (!authorization || authorization.holdState !== 'HELD') return;
      // The card row before its ledger rows, the order authorizations take them in: the other order let a clearing
      // and an authorization of one card deadlock (Postgres aborted one after deadlock_timeout, each time).
      const card = await this.cards.findById(tx.manager, authorization.cardId, { lock: true });
      await this.postings.clear(tx.manager, moneyOf(authorization));
      const cleared = await this.transactions.moveHold(tx.manager, transactionId, 'HELD', 'CLEARED', true);
      if (!cleared) throw new Error(`authorization ${transactionId} left HELD under its lock`);
      await recordTransactionEvent(tx.manager, cleared, IssuingTransactionEvents.clearing);
      if (card?.usageType === 'ONE_TIME' && card.autoCancelTrigger === 'ON_CAPTURE') await this.cancelOneTime(tx, card, 'ON_CAPTURE');
      await run?.completeIn?.(tx);
    });
  }

  private async decideAndRecord(
    tx: TransactionContext,
    actor: Actor,
    transactionId: string,
    cardId: string,
    attempt: AuthorizationAttempt,
    payload: SimulateAuthorizationPayload,
    decision: Decision | null,
  ): Promise<SimulatedTransactionView> {
    // The card's row lock serialises its authorizations: spend and money are read after the previous one committed.
    const card = await this.cards.find(tx.manager, actor.account_id, cardId, { lock: true });
    if (!card) throw CardErrors.notFound();
    const money: TransactionMoney = {
      transactionId,
      cardId: card.cardId,
      fundingOwner: card.usageType === 'ONE_TIME' ? card.accountId : card.cardId,
      currency: card.currency,
      amountMinor: attempt.amountMinor,
    };
    let reason =
      payload.transaction_status === 'DECLINED'
        ? SIMULATED_NETWORK_DECLINE
        : (declineByCard(card, attempt) ?? (await this.declineBySpend(tx, card, attempt)) ?? (decision && !decision.approved ? decision.reason : null));
    let available: bigint | null = null;
    if (reason === null) {
      // A refused debit leaves the transaction unusable; the savepoint keeps it so the decline can be recorded.
      await tx.manager.query(`SAVEPOINT ${HOLD_SAVEPOINT}`);
      try {
        available = this.postings.fundingAfter(await this.postings.hold(tx.manager, money), money);
      } catch (error) {
        if (!(error instanceof InsufficientFundsError)) throw error;
        await tx.manager.query(`ROLLBACK TO SAVEPOINT ${HOLD_SAVEPOINT}`);
        reason = 'insufficient funds';
      }
    }
    const transaction = await this.transactions.insert(tx.manager, {
      transactionId,
      accountId: card.accountId,
      masterAccountId: card.masterAccountId,
      cardId: card.cardId,
      cardholderId: card.cardholderId,
      maskedNumber: card.maskedNumber,
      originalTransactionId: null,
      type: 'AUTHORIZATION',
      status: reason === null ? 'APPROVED' : 'DECLINED',
      holdState: reason === null ? 'HELD' : null,
      billingCurrency: card.currency,
      billingAmountMinor: attempt.amountMinor,
      transactionCurrency: attempt.currency,
      transactionAmountMinor: attempt.amountMinor,
      fundingOwner: money.fundingOwner,
      cardAvailableMinor: available ?? (await this.postings.fundingAvailable(tx.manager, money)),
      authorizationCode: reason === null ? String(randomInt(0, 1_000_000)).padStart(6, '0') : null,
      channel: attempt.channel,
      merchantName: payload.merchant_name,
      merchantCategoryCode: attempt.mcc,
      merchantCity: payload.merchant_city ?? null,
      merchantCountry: payload.merchant_country ?? null,
      description: reason,
      decisionResponseCode: decision?.responseCode ?? null,
    });
    if (reason !== null) {
      await recordTransactionEvent(tx.manager, transaction, IssuingTransactionEvents.declined);
      return presentSimulated(transaction);
    }
    await recordTransactionEvent(tx.manager, transaction, IssuingTransactionEvents.authorization);
    await this.jobs.schedule(tx, { kind: CLEARING_JOB, subjectId: transactionId, dueAt: new Date(Date.now() + this.config.AUTH_CLEARING_DELAY_MS) });
    if (card.usageType === 'ONE_TIME' && card.autoCancelTrigger === 'ON_AUTH') await this.cancelOneTime(tx, card, 'ON_AUTH');
    return presentSimulated(transaction);
  }

  /** Interval controls and the card limit count the approved, not reversed authorizations: one query per MCC set. */
  private async declineBySpend(tx: TransactionContext, card: Card, attempt: AuthorizationAttempt): Promise<string | null> {
    if (!needsSpend(card, attempt.mcc)) return null;
    const windows = spendWindows(new Date());
    const spends = new Map<string, WindowSpend>();
    const keyOf = (control: SpendingControlInput | null) => (control?.categories?.length ? [...control.categories].sort().join(',') : '*');
    for (const control of [null, ...card.spendingControls]) {
      const key = keyOf(control);
      if (!spends.has(key)) spends.set(key, await this.transactions.spend(tx.manager, card.cardId, windows, key === '*' ? undefined : key.split(',')));
    }
    return declineBySpend(card, attempt, (control) => spends.get(keyOf(control)) as WindowSpend);
  }

  /** Wire-compat §11.12's fields, as far as a simulated authorization has them. */
  private async decisionRequest(
    transactionId: string,
    card: Card,
    attempt: AuthorizationAttempt,
    payload: SimulateAuthorizationPayload,
  ): Promise<AuthorizationDecisionRequest> {
    const fundingOwner = card.usageType === 'ONE_TIME' ? card.accountId : card.cardId;
    const balance = await this.postings.fundingAvailable(this.dataSource, { fundingOwner, currency: card.currency });
    const amount = toMajorNumber(attempt.amountMinor);
    return {
      transaction_id: transactionId,
      transaction_type: 1000,
      card_id: card.cardId,
      processing_code: attempt.channel === 'ATM' ? '010000' : '000000',
      billing_amount: amount,
      transaction_amount: amount,
      auth_amount: amount,
      card_balance: toMajorNumber(balance),
      date_of_transaction: new Date().toISOString().slice(0, 19).replace('T', ' '),
      billing_currency_code: card.currency,
      transaction_currency_code: attempt.currency,
      auth_currency_code: card.currency,
      merchant_id: '',
      merchant_name: payload.merchant_name,
      merchant_category_code: attempt.mcc,
      merchant_city: payload.merchant_city ?? '',
      merchant_country: payload.merchant_country ?? '',
      terminal_id: '',
      pos_entry_mode: { ONLINE: '81', CONTACTLESS: '07', CHIP: '05', ATM: '05' }[attempt.channel],
      pos_condition_code: attempt.channel === 'ONLINE' ? '59' : '00',
      pin_entry_capability: attempt.channel === 'ATM' ? '1' : '0',
      retrieval_reference_number: transactionId.replace(/-/g, '').slice(0, 12),
      system_trace_audit_number: String(randomInt(0, 1_000_000)).padStart(6, '0'),
      acquiring_institution_country_code: payload.merchant_country ?? '',
      acquiring_institution_id: '',
      wallet_type: '',
    };
  }

  private async returnMoney(tx: TransactionContext, actor: Actor, payload: SimulateReturnPayload, kind: ReturnKind): Promise<SimulatedTransactionView> {
    const original = await this.transactions.find(tx.manager, actor.account_id, payload.transaction_id, { lock: true });
    if (!original) throw TransactionErrors.notFound();
    const from = kind.type === 'CHARGEBACK_DEBIT' ? 'CHARGEBACK_CREDIT' : 'AUTHORIZATION';
    if (original.type !== from) throw TransactionErrors.notReturnable(kind.what, `it is a ${original.type}, not a ${from}`);
    if (from === 'AUTHORIZATION' && original.holdState !== 'CLEARED') throw TransactionErrors.notReturnable(kind.what, 'it has not cleared');
    const taken = await this.transactions.totalsAgainst(tx.manager, original.transactionId);
    const used = kind.type === 'CHARGEBACK_DEBIT' ? (taken.get('CHARGEBACK_DEBIT') ?? 0n) : (taken.get('REFUND') ?? 0n) + (taken.get('CHARGEBACK_CREDIT') ?? 0n);
    const left = original.billingAmountMinor - used;
    const amountMinor = payload.amount === undefined ? left : parseMajorNumber(payload.amount);
    if (left <= 0n) throw TransactionErrors.notReturnable(kind.what, 'nothing is left of it');
    if (amountMinor > left) throw TransactionErrors.amountTooHigh(kind.what, majorString(left));
    const transactionId = uuidV4();
    const money = { ...moneyOf(original), transactionId, amountMinor };
    let posted;
    try {
      const entryKind = `card.${kind.type.toLowerCase()}`;
      posted = kind.type === 'CHARGEBACK_DEBIT' ? await this.postings.debit(tx.manager, money, entryKind) : await this.postings.credit(tx.manager, money, entryKind);
    } catch (error) {
      if (error instanceof InsufficientFundsError) throw TransactionErrors.cardInsufficient();
      throw error;
    }
    const transaction = await this.transactions.insert(tx.manager, {
      ...followUpOf(original, kind.type, amountMinor),
      transactionId,
      status: 'APPROVED',
      cardAvailableMinor: this.postings.fundingAfter(posted, money),
      postedTime: new Date(),
    });
    await recordTransactionEvent(tx.manager, transaction, kind.event);
    return presentSimulated(transaction);
  }

  private async cancelOneTime(tx: TransactionContext, card: Card, trigger: 'ON_AUTH' | 'ON_CAPTURE'): Promise<void> {
    if (!CANCELLABLE.includes(card.status)) return;
    await this.cardService.updateStatus(tx, systemActorOf(card), {
      card_id: card.cardId,
      card_status: 'CANCELLED',
      update_reason: `one-time card used (${trigger})`,
    });
  }
}

function moneyOf(transaction: CardTransaction): TransactionMoney {
  return {
    transactionId: transaction.transactionId,
    cardId: transaction.cardId,
    fundingOwner: transaction.fundingOwner,
    currency: transaction.billingCurrency,
    amountMinor: transaction.billingAmountMinor,
  };
}

/** A transaction that refers to an earlier one (reversal, refund, chargeback): same card and merchant. */
function followUpOf(original: CardTransaction, type: CardTransaction['type'], amountMinor: bigint) {
  return {
    transactionId: uuidV4(),
    accountId: original.accountId,
    masterAccountId: original.masterAccountId,
    cardId: original.cardId,
    cardholderId: original.cardholderId,
    maskedNumber: original.maskedNumber,
    originalTransactionId: original.transactionId,
    type,
    holdState: null,
    billingCurrency: original.billingCurrency,
    billingAmountMinor: amountMinor,
    transactionCurrency: original.transactionCurrency,
    transactionAmountMinor: amountMinor,
    fundingOwner: original.fundingOwner,
    authorizationCode: null,
    channel: original.channel,
    merchantName: original.merchantName,
    merchantCategoryCode: original.merchantCategoryCode,
    merchantCity: original.merchantCity,
    merchantCountry: original.merchantCountry,
    description: null,
    decisionResponseCode: null,
  };
}

/** Issuing acting on its own (a one-time card's auto-cancel): the card's own account, no caller. */
function systemActorOf(card: Card): Actor {
  return { account_id: card.accountId, master_account_id: card.masterAccountId, caller_account_id: card.accountId, client_id: 'issuing', permissions: [] };
}
