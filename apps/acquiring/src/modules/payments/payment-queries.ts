import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  ATTEMPT_STATUSES,
  CommandEnvelope,
  INTENT_STATUSES,
  Page,
  PaymentAttemptView,
  PaymentIntentView,
} from '@paygrid/contracts';
import { AcquiringErrors } from '../../common/acquiring-errors';
import { pagedList, requireActor } from '../../common/actor';
import { PayloadReader } from '../../common/payload-reader';
import { PaymentFlow } from './payment-flow';
import { LIMITS, readIntentId } from './payment-payloads';
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

  async retrieveIntent(command: CommandEnvelope): Promise<PaymentIntentView> {
    const actor = requireActor(command);
    const reader = PayloadReader.of(command);
    const id = readIntentId(reader);
    reader.done();
    return this.flow.view(await this.flow.snapshot(this.dataSource, id, { accountId: actor.account_id }));
  }

  listIntents(command: CommandEnvelope): Promise<Page<PaymentIntentView>> {
    return pagedList(
      command,
      (reader, actor) => ({
        accountId: actor.account_id,
        status: reader.oneOf('intent_status', INTENT_STATUSES),
        createdFrom: reader.time('create_start_time'),
        createdTo: reader.time('create_end_time'),
      }),
      (filter, window) => this.payments.listIntents(this.dataSource, filter, window),
      async (intent) => this.flow.view(await this.flow.complete(this.dataSource, intent)),
    );
  }

  async retrieveAttempt(command: CommandEnvelope): Promise<PaymentAttemptView> {
    const actor = requireActor(command);
    const reader = PayloadReader.of(command);
    const id = reader.string('attempt_id', { required: true, max: LIMITS.intentId });
    reader.done();
    const attempt = await this.payments.findAttempt(this.dataSource, id, actor.account_id);
    if (!attempt) throw AcquiringErrors.notFound('payment_attempt');
    return this.presenter.attempt(attempt);
  }

  listAttempts(command: CommandEnvelope): Promise<Page<PaymentAttemptView>> {
    return pagedList(
      command,
      (reader, actor) => ({
        accountId: actor.account_id,
        intentId: reader.string('payment_intent_id', { max: LIMITS.intentId }),
        status: reader.oneOf('attempt_status', ATTEMPT_STATUSES),
      }),
      (filter, window) => this.payments.listAttempts(this.dataSource, filter, window),
      (attempt) => this.presenter.attempt(attempt),
    );
  }
}
