import { Inject, Injectable } from '@nestjs/common';
import { AcquiringEvents, IntentStatus, PaymentIntentView } from '@paygrid/contracts';
import { newId } from '@paygrid/ids';
import { DurableJobs, Executor, StagedContext, TransactionContext } from '@paygrid/platform';
import { ACQUIRING_CONFIG, AcquiringConfig } from '../../config';
import { AcquiringErrors } from '../../common/acquiring-errors';
import { AuthorizationResult, PlainCard } from '../connectors/connector';
import { Customer } from '../customers/customer.types';
import { CustomerService } from '../customers/customer.service';
import { CaptureWindow } from './capture-window';
import { deriveIntentStatus } from './intent-status.mapping';
import { AttemptEvent } from './payment-attempt.states';
import { IntentEvent, intentEventFor, intentMachine } from './payment-intent.states';
import { INTENT_EVENT_OF_STATUS, PaymentEvents } from './payment.events';
import { PaymentPresenter } from './payment.presenter';
import {
  IntentChanges,
  NewAttempt,
  NewIntent,
  PaymentRepository,
  plannedFirstAttempt,
  plannedIntent,
  plannedAttemptTransition,
  plannedIntentUpdate,
} from './payment.repository';
import { PaymentAttempt, PaymentIntent, StoredCard } from './payment.types';

/**
 * The write steps every payment operation and job shares, so each rule lives once: start an attempt,
 * apply a processor's answer to it, and re-derive the intent's status from its latest attempt (the one
 * mapping) through the intent's state table, announcing each change in the same transaction.
 */
export interface Snapshot {
  intent: PaymentIntent;
  attempt: PaymentAttempt | null;
  customer: Customer | null;
}

export interface NewAttemptInput {
  commandId: string | null;
  card: StoredCard;
  savedCardId: string | null;
  autoCapture: boolean;
  threeDsAction: string | null;
  processor: string;
}

@Injectable()
export class PaymentFlow {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly customers: CustomerService,
    private readonly events: PaymentEvents,
    private readonly presenter: PaymentPresenter,
    private readonly captureWindow: CaptureWindow,
    private readonly jobs: DurableJobs,
    @Inject(ACQUIRING_CONFIG)
    private readonly config: Pick<AcquiringConfig, 'ASYNC_CARD_DELAY_MS' | 'SETTLEMENT_DELAY_MS'>,
  ) {}

  /** The intent with its latest attempt and customer, locked when `lock` (inside a write). */
  async snapshot(executor: Executor, intentId: string, options: { accountId?: string; lock?: boolean } = {}): Promise<Snapshot> {
    const locked = options.lock ? await this.payments.lockIntentWithLatestAttempt(executor, intentId, options.accountId) : undefined;
    if (locked) return this.complete(executor, locked.intent, locked.attempt);
    const intent = options.lock
      ? await this.payments.lockIntent(executor, intentId, options.accountId)
      : await this.payments.findIntent(executor, intentId, options.accountId);
    if (!intent) throw AcquiringErrors.notFound('payment_intent');
    return this.complete(executor, intent);
  }

  /** The intent's snapshot, given the intent and, when already read with it, its latest attempt. */
  async complete(executor: Executor, intent: PaymentIntent, latest?: PaymentAttempt): Promise<Snapshot> {
    const attempt =
      latest ?? (intent.latestAttemptId ? ((await this.payments.findAttempt(executor, intent.latestAttemptId)) ?? null) : null);
    const customer = (await this.customers.find(executor, intent.customerId, intent.accountId)) ?? null;
    return { intent, attempt, customer };
  }

  view(snapshot: Snapshot): PaymentIntentView {
    return this.presenter.intent(snapshot.intent, snapshot.attempt, snapshot.customer);
  }

  /**
   * A new intent, written once in its final state: with a card it is already PENDING on its first
   * attempt (the mapping's status; always a legal start). Its created event shows it as created, before
   * the attempt. A retry of the creating command gets back what the first run recorded.
   */
  async createIntent(
    tx: TransactionContext,
    input: Omit<NewIntent, 'status' | 'latestAttemptId'>,
    customer: Customer | null,
    first: NewAttemptInput | null,
  ): Promise<Snapshot & { created: boolean }> {
    const plan = this.planIntent(input, first);
    const written = await this.payments.insertIntent(tx.manager, plan.intent, plan.first, plan.createdAt);
    if (!written.created) return { ...(await this.complete(tx.manager, written.intent)), created: false };
    await this.announceCreated(tx.manager, plan, customer);
    return { intent: written.intent, attempt: written.attempt, customer, created: true };
  }

  /**
   * createIntent as one statement with its events (StagedContext.statement): the intent, its first
   * attempt and their two events in one round trip, no transaction around them. The events are built
   * from the rows as planned (payment.repository.ts, plannedIntent). Undefined when the command had
   * already created its intent: the caller then takes createIntent's path, which finds it.
   */
  async createIntentAlone(
    statement: StagedContext['statement'],
    input: Omit<NewIntent, 'status' | 'latestAttemptId'>,
    first: NewAttemptInput,
  ): Promise<Snapshot | undefined> {
    const plan = this.planIntent(input, first);
    const result = await statement(async (events) => {
      await this.announceCreated(events, plan, null);
      return this.payments.intentInsert(plan.intent, plan.first, plan.createdAt);
    });
    const written = this.payments.insertedIntent(result, plan.first);
    return written ? { ...written, customer: null } : undefined;
  }

  /** The intent's row (and its first attempt's) to insert, and when: its status follows from having a card. */
  private planIntent(input: Omit<NewIntent, 'status' | 'latestAttemptId'>, first: NewAttemptInput | null) {
    const attemptId = first ? newId('att') : null;
    const status = first ? deriveIntentStatus({ cancelledAt: null }, { status: 'INITIATED', failureCode: '' }) : 'REQUIRES_PAYMENT_METHOD';
    return {
      intent: { ...input, status, latestAttemptId: attemptId },
      first: first && attemptId ? { ...first, id: attemptId } : undefined,
      createdAt: new Date(),
    };
  }

  /** The created events of a planned intent and its first attempt, appended through `executor`. */
  private async announceCreated(executor: Executor, plan: ReturnType<PaymentFlow['planIntent']>, customer: Customer | null): Promise<void> {
    const intent = plannedIntent(plan.intent, plan.createdAt);
    const asCreated: PaymentIntent = { ...intent, status: 'REQUIRES_PAYMENT_METHOD', latestAttemptId: null };
    await this.events.intent(executor, AcquiringEvents.intentCreated, asCreated, null, customer);
    if (plan.first) await this.events.attempt(executor, intent, plannedFirstAttempt(intent, plan.first));
  }

  /** A new INITIATED attempt becomes the intent's latest (the intent moves to PENDING quietly). */
  async startAttempt(tx: TransactionContext, snapshot: Snapshot, input: NewAttemptInput, changes: IntentChanges = {}): Promise<Snapshot> {
    const { attempt, created } = await this.payments.insertAttempt(tx.manager, newAttemptOf(snapshot.intent, input, newId('att')));
    if (!created) return { ...snapshot, attempt };
    await this.events.attempt(tx.manager, snapshot.intent, attempt);
    return this.syncIntent(tx, { ...snapshot, attempt }, { ...changes, latest_attempt_id: attempt.id }, 'CONFIRM');
  }

  /**
   * Applies the processor's answer to `known.attempt`, which must still be the intent's latest and
   * waiting for it: the intent is locked and read again (a customer never changes once an attempt
   * exists), and the attempt moved by a conditional update (an answer that arrives twice, or after a
   * cancel, is refused with the attempt's current status): one statement when nothing refuses.
   *
   * `asRecorded`: `known` holds the rows exactly as this run wrote them (record 1). The move is then planned
   * from them and sent without waiting, like everything after it, so the whole transaction is one round
   * trip; it commits only if the intent and attempt were still as recorded, and otherwise fails (the
   * caller runs it again without `asRecorded`, Authorization.apply).
   */
  async applyAuthorization(
    tx: TransactionContext,
    known: Snapshot,
    result: AuthorizationResult,
    card: PlainCard | null,
    asRecorded = false,
  ): Promise<Snapshot> {
    const attempt = known.attempt;
    if (!attempt) throw new Error(`intent ${known.intent.id} has no attempt to authorise`);
    const now = new Date();
    const { event, set } = authorizationWrite(result, attempt, now);
    const planned = asRecorded ? plannedAttemptTransition(attempt, event, set, now) : undefined;
    if (planned) tx.send(this.payments.plannedLatestAttemptTransitionStatement(known.intent, event, set, planned));
    const { intent, attempt: updated } = planned
      ? { intent: known.intent, attempt: planned }
      : await this.moveLatestAttempt(tx, known.intent.id, attempt.id, event, set);
    switch (result.kind) {
      case 'approved':
        if (result.captured) await this.scheduleSettlement(tx, attempt.id, now);
        else {
          const dueAt = await this.captureWindow.closesAt(tx.manager, attempt.accountId, now);
          await this.jobs.schedule(tx, { kind: 'auto_capture', subjectId: attempt.id, dueAt });
        }
        if (card && intent.customerId && !attempt.savedCardId) {
          await this.customers.saveCard(tx.manager, intent.customerId, attempt.accountId, card, attempt.card);
        }
        break;
      case 'declined':
        break;
      case 'challenge':
        await this.jobs.schedule(tx, { kind: 'expire_authentication', subjectId: attempt.id, dueAt: intent.clientSecretExpiresAt });
        break;
      case 'pending':
        await this.jobs.schedule(tx, {
          kind: 'complete_async_authorization',
          subjectId: attempt.id,
          dueAt: new Date(now.getTime() + this.config.ASYNC_CARD_DELAY_MS),
        });
        break;
    }
    await this.events.attempt(tx.manager, intent, updated);
    const next = await this.syncIntent(tx, { ...known, intent, attempt: updated });
    if (updated.status === 'PENDING_AUTHORIZATION') {
      await this.events.intent(tx.manager, AcquiringEvents.intentPending, next.intent, next.attempt, next.customer);
    }
    return next;
  }

  /**
   * The intent locked and the attempt moved, in one statement; when that refused, the separate steps
   * (under the lock it took), whose refusals say what changed: a newer attempt, or the attempt's status.
   */
  private async moveLatestAttempt(
    tx: TransactionContext,
    intentId: string,
    attemptId: string,
    event: AttemptEvent,
    set: Record<string, unknown>,
  ): Promise<{ intent: PaymentIntent; attempt: PaymentAttempt }> {
    const moved = await this.payments.transitionLatestAttempt(tx.manager, intentId, attemptId, event, set);
    if (moved) return moved;
    const intent = await this.payments.lockIntent(tx.manager, intentId);
    if (!intent || intent.latestAttemptId !== attemptId) {
      throw AcquiringErrors.unexpectedState(`cannot complete PaymentAttempt ${attemptId}: it is no longer the latest attempt`);
    }
    return { intent, attempt: await this.payments.transitionAttempt(tx.manager, attemptId, event, set) };
  }

  /** A captured attempt is cleared and settled a short (sandbox) delay later. */
  scheduleSettlement(tx: TransactionContext, attemptId: string, capturedAt: Date): Promise<void> {
    return this.jobs.schedule(tx, {
      kind: 'settle_capture',
      subjectId: attemptId,
      dueAt: new Date(capturedAt.getTime() + this.config.SETTLEMENT_DELAY_MS),
    });
  }

  /** Moves the attempt and re-derives the intent; used by capture, cancel, expiry and settlement. */
  async transitionAttempt(
    tx: TransactionContext,
    snapshot: Snapshot,
    event: AttemptEvent,
    set: Record<string, unknown>,
    preferred?: IntentEvent,
    intentChanges: IntentChanges = {},
  ): Promise<Snapshot> {
    if (!snapshot.attempt) throw new Error(`intent ${snapshot.intent.id} has no attempt`);
    const updated = await this.payments.transitionAttempt(tx.manager, snapshot.attempt.id, event, set);
    await this.events.attempt(tx.manager, snapshot.intent, updated);
    return this.syncIntent(tx, { ...snapshot, attempt: updated }, intentChanges, preferred);
  }

  /**
   * transitionAttempt for a caller that checked, under the intent's row lock, that the attempt's status
   * allows `event`: the move is planned (plannedAttemptTransition) and sent without waiting for it, so it
   * travels with the transaction's next statement or its COMMIT. Had the attempt not been as checked, the
   * transaction fails in Postgres rather than committing without the move.
   */
  async transitionCheckedAttempt(tx: TransactionContext, snapshot: Snapshot, event: AttemptEvent, set: Record<string, unknown>): Promise<Snapshot> {
    const attempt = snapshot.attempt;
    if (!attempt) throw new Error(`intent ${snapshot.intent.id} has no attempt`);
    const planned = plannedAttemptTransition(attempt, event, set, new Date());
    if (!planned) return this.transitionAttempt(tx, snapshot, event, set);
    tx.send(this.payments.plannedAttemptTransitionStatement(event, set, planned));
    await this.events.attempt(tx.manager, snapshot.intent, planned);
    return this.syncIntent(tx, { ...snapshot, attempt: planned });
  }

  /**
   * Writes the status the mapping derives (plus `changes`) with a conditional update, after checking the
   * move against the intent's state table; announces the new status unless it is the quiet PENDING of
   * an attempt that has only just started. Writes nothing when nothing would change but `updated_at`
   * (a capture's settlement: SUCCEEDED stays SUCCEEDED): every caller holds the intent's row lock, so
   * the row is known to be as read, and the intent's own fields did not change.
   */
  async syncIntent(tx: TransactionContext, snapshot: Snapshot, changes: IntentChanges = {}, preferred?: IntentEvent): Promise<Snapshot> {
    const { intent, attempt } = snapshot;
    const cancelledAt = changes.cancelled_at ?? intent.cancelledAt;
    const target = deriveIntentStatus({ cancelledAt }, attempt);
    if (target !== intent.status && !intentEventFor(intent.status, target, preferred)) {
      // The mapping and the state table disagree: a bug, never written.
      throw new Error(`PaymentIntent ${intent.id}: no transition from ${intent.status} to ${target}`);
    }
    const capturedAmountMinor = attempt?.capturedAmountMinor ?? intent.capturedAmountMinor;
    const noChanges = Object.values(changes).every((value) => value === undefined);
    if (noChanges && target === intent.status && capturedAmountMinor === intent.capturedAmountMinor) return snapshot;
    const now = new Date();
    const update: IntentChanges = {
      ...changes,
      status: target,
      captured_amount_minor: capturedAmountMinor,
      completed_at: intentMachine.isTerminal(target) && !intentMachine.isTerminal(intent.status) ? now : undefined,
    };
    const updated = await this.writeIntentUpdate(tx, intent, update, now);
    const next = { ...snapshot, intent: updated };
    if (announces(intent.status, target, attempt)) {
      await this.events.intent(tx.manager, INTENT_EVENT_OF_STATUS[target], updated, attempt, snapshot.customer);
    }
    return next;
  }

  /**
   * Writes `update` to the intent, whose row lock the caller holds and whose row it read: the new row
   * is then known beforehand (plannedIntentUpdate), so the update is sent without waiting for it and
   * travels with the transaction's next statement or its COMMIT: one round trip fewer. A row that was not
   * as read fails the transaction in Postgres (expectingRows). An update of a jsonb column is awaited
   * and read back, as Postgres normalises it.
   */
  private async writeIntentUpdate(tx: TransactionContext, intent: PaymentIntent, update: IntentChanges, now: Date): Promise<PaymentIntent> {
    const planned = plannedIntentUpdate(intent, update, now);
    if (planned) {
      tx.send(this.payments.plannedIntentUpdateStatement(intent.status, update, planned));
      return planned;
    }
    const updated = await this.payments.updateIntent(tx.manager, intent.id, intent.status, update);
    if (!updated) throw new Error(`PaymentIntent ${intent.id} changed under its row lock`);
    return updated;
  }
}

/** The attempt's move for a processor answer: the event and the columns it writes. */
function authorizationWrite(result: AuthorizationResult, attempt: PaymentAttempt, now: Date): { event: AttemptEvent; set: Record<string, unknown> } {
  const common = { processor_reference: result.processorReference, authentication_data: result.authenticationData };
  switch (result.kind) {
    case 'approved':
      return {
        event: result.captured ? 'CAPTURE' : 'AUTHORIZE',
        set: {
          ...common,
          auth_code: result.authCode,
          rrn: result.rrn,
          authorized_at: now,
          ...(result.captured ? { captured_amount_minor: attempt.amountMinor, completed_at: now } : {}),
        },
      };
    case 'declined':
      return {
        event: 'FAIL',
        set: { ...common, failure_code: result.failureCode, failure_message: result.failureMessage, advice_code: result.adviceCode, completed_at: now },
      };
    case 'challenge':
      return { event: 'REDIRECT_FOR_AUTHENTICATION', set: common };
    case 'pending':
      return { event: 'AWAIT_PROCESSOR', set: common };
  }
}

function newAttemptOf(intent: PaymentIntent, input: NewAttemptInput, id: string): NewAttempt {
  return {
    id,
    intentId: intent.id,
    accountId: intent.accountId,
    commandId: input.commandId,
    amountMinor: intent.amountMinor,
    currency: intent.currency,
    autoCapture: input.autoCapture,
    card: input.card,
    savedCardId: input.savedCardId,
    threeDsAction: input.threeDsAction,
    processor: input.processor,
  };
}

function announces(from: IntentStatus, to: IntentStatus, attempt: PaymentAttempt | null): boolean {
  if (from === to) return false;
  return !(to === 'PENDING' && attempt?.status === 'INITIATED');
}
