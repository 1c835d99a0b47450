import { Injectable } from '@nestjs/common';
import {
  AcquiringCommand,
  AttemptIdPayload,
  CancelIntentPayload,
  CaptureIntentPayload,
  ConfirmIntentPayload,
  CreateIntentPayload,
  IntentIdPayload,
  ListAttemptsPayload,
  ListIntentsPayload,
  UpdateIntentPayload,
} from '@paygrid/contracts';
import { CommandContext, HandleCommand, StagedContext, WriteContext } from '@paygrid/platform';
import { CancelIntentOperation } from './operations/cancel-intent.operation';
import { CaptureIntentOperation } from './operations/capture-intent.operation';
import { ConfirmIntentOperation } from './operations/confirm-intent.operation';
import { CreateIntentOperation } from './operations/create-intent.operation';
import { UpdateIntentOperation } from './operations/update-intent.operation';
import { PaymentQueries } from './payment-queries';

/**
 * The payment commands (libs/contracts AcquiringCommand). Thin: each hands over to its operation.
 * Create and confirm are staged: the card processor is called between their two writes, outside any
 * transaction; the others run inside the command's transaction with its ledger row.
 */
@Injectable()
export class PaymentCommands {
  constructor(
    private readonly create: CreateIntentOperation,
    private readonly confirm: ConfirmIntentOperation,
    private readonly capture: CaptureIntentOperation,
    private readonly cancel: CancelIntentOperation,
    private readonly update: UpdateIntentOperation,
    private readonly queries: PaymentQueries,
  ) {}

  // Finds a repeat's stored reply in its first transaction (create-intent.operation.ts): no pre-read.
  @HandleCommand(AcquiringCommand.createIntent, { staged: true, findsStoredReply: true })
  createIntent(payload: CreateIntentPayload, context: StagedContext) {
    return this.create.execute(context, payload);
  }

  @HandleCommand(AcquiringCommand.confirmIntent, { staged: true })
  confirmIntent(payload: ConfirmIntentPayload, context: StagedContext) {
    return this.confirm.execute(context, payload);
  }

  @HandleCommand(AcquiringCommand.captureIntent)
  captureIntent(payload: CaptureIntentPayload, context: WriteContext) {
    return this.capture.execute(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(AcquiringCommand.cancelIntent)
  cancelIntent(payload: CancelIntentPayload, context: WriteContext) {
    return this.cancel.execute(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(AcquiringCommand.updateIntent)
  updateIntent(payload: UpdateIntentPayload, context: WriteContext) {
    return this.update.execute(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(AcquiringCommand.retrieveIntent)
  retrieveIntent(payload: IntentIdPayload, context: CommandContext) {
    return this.queries.retrieveIntent(context.requireActor(), payload);
  }

  @HandleCommand(AcquiringCommand.listIntents)
  listIntents(payload: ListIntentsPayload, context: CommandContext) {
    return this.queries.listIntents(context.requireActor(), payload);
  }

  @HandleCommand(AcquiringCommand.retrieveAttempt)
  retrieveAttempt(payload: AttemptIdPayload, context: CommandContext) {
    return this.queries.retrieveAttempt(context.requireActor(), payload);
  }

  @HandleCommand(AcquiringCommand.listAttempts)
  listAttempts(payload: ListAttemptsPayload, context: CommandContext) {
    return this.queries.listAttempts(context.requireActor(), payload);
  }
}
