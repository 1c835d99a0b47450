import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  Actor,
  AttemptIdPayload,
  IntentIdPayload,
  ListAttemptsPayload,
  ListIntentsPayload,
  Page,
  PaymentAttemptView,
  PaymentIntentView,
  AttemptStatus,
  AttemptStatusFilter,
  SUCCEEDED_ATTEMPT_STATUSES,
} from '@paygrid/contracts';
import { AcquiringErrors } from '../../common/acquiring-errors';
import { pageOf, pageWindow, timeFilter } from '../../common/paging';
import { PaymentFlow } from './payment-flow';
import { PaymentPresenter } from './payment.presenter';
import { PaymentRepository } from './payment.repository';

/**
 * Reads of intents and attempts (wire-compat §9.1, §9.6, §9.7), always within the acting account: an
 * id of another account answers exactly like an unknown one.
 */
@Injectable()
export class PaymentQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly payments: PaymentRepository,
    private readonly flow: PaymentFlow,
    private readonly presenter: PaymentPresenter,
  ) {}

  async retrieveIntent(actor: Actor, payload: IntentIdPayload): Promise<PaymentIntentView> {
    return this.flow.view(await this.flow.snapshot(this.dataSource, payload.payment_intent_id, { accountId: actor.account_id }));
  }

  async listIntents(actor: Actor, query: ListIntentsPayload): Promise<Page<PaymentIntentView>> {
    const filter = {
      accountId: actor.account_id,
      status: query.intent_status,
      createdFrom: timeFilter(query.create_start_time),
      createdTo: timeFilter(query.create_end_time),
    };
    const found = await this.payments.listIntents(this.dataSource, filter, pageWindow(query));
    return pageOf(query, found, async (intent) => this.flow.view(await this.flow.complete(this.dataSource, intent)));
  }

  async retrieveAttempt(actor: Actor, payload: AttemptIdPayload): Promise<PaymentAttemptView> {
    const attempt = await this.payments.findAttempt(this.dataSource, payload.attempt_id, actor.account_id);
    if (!attempt) throw AcquiringErrors.notFound('payment_attempt');
    return this.presenter.attempt(attempt);
  }

  async listAttempts(actor: Actor, query: ListAttemptsPayload): Promise<Page<PaymentAttemptView>> {
    const filter = { accountId: actor.account_id, intentId: query.payment_intent_id, statuses: attemptStatusesOf(query.attempt_status) };
    const found = await this.payments.listAttempts(this.dataSource, filter, pageWindow(query));
    return pageOf(query, found, (attempt) => this.presenter.attempt(attempt));
  }
}

/** The stored statuses an attempt_status filter selects (the SDK's SUCCEEDED: see ATTEMPT_STATUS_FILTERS). */
export function attemptStatusesOf(filter: AttemptStatusFilter | undefined): readonly AttemptStatus[] | undefined {
  if (filter === undefined) return undefined;
  return filter === 'SUCCEEDED' ? SUCCEEDED_ATTEMPT_STATUSES : [filter];
}
