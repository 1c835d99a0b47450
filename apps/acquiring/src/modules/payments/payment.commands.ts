import { Injectable } from '@nestjs/common';
import { AcquiringCommands, CommandEnvelope } from '@paygrid/contracts';
import { CommandHandler } from '@paygrid/platform';
import { CancelIntentOperation } from './operations/cancel-intent.operation';
import { CaptureIntentOperation } from './operations/capture-intent.operation';
import { ConfirmIntentOperation } from './operations/confirm-intent.operation';
import { CreateIntentOperation } from './operations/create-intent.operation';
import { UpdateIntentOperation } from './operations/update-intent.operation';
import { PaymentQueries } from './payment-queries';

/**
 * The payment commands on the acquiring command topic (libs/contracts/src/acquiring.ts). Thin: each
 * hands over to its operation. Writes are not `mutates: true` on purpose: an operation runs the command
 * ledger itself (UnitOfWork.once) so that the processor call sits outside any transaction and delayed
 * jobs are enqueued only after commit.
 */
@Injectable()
export class PaymentCommandHandlers {
  constructor(
    private readonly create: CreateIntentOperation,
    private readonly confirm: ConfirmIntentOperation,
    private readonly capture: CaptureIntentOperation,
    private readonly cancel: CancelIntentOperation,
    private readonly update: UpdateIntentOperation,
    private readonly queries: PaymentQueries,
  ) {}

  @CommandHandler(AcquiringCommands.createIntent)
  createIntent(command: CommandEnvelope) {
    return this.create.execute(command);
  }

  @CommandHandler(AcquiringCommands.confirmIntent)
  confirmIntent(command: CommandEnvelope) {
    return this.confirm.execute(command);
  }

  @CommandHandler(AcquiringCommands.captureIntent)
  captureIntent(command: CommandEnvelope) {
    return this.capture.execute(command);
  }

  @CommandHandler(AcquiringCommands.cancelIntent)
  cancelIntent(command: CommandEnvelope) {
    return this.cancel.execute(command);
  }

  @CommandHandler(AcquiringCommands.updateIntent)
  updateIntent(command: CommandEnvelope) {
    return this.update.execute(command);
  }

  @CommandHandler(AcquiringCommands.retrieveIntent)
  retrieveIntent(command: CommandEnvelope) {
    return this.queries.retrieveIntent(command);
  }

  @CommandHandler(AcquiringCommands.listIntents)
  listIntents(command: CommandEnvelope) {
    return this.queries.listIntents(command);
  }

  @CommandHandler(AcquiringCommands.retrieveAttempt)
  retrieveAttempt(command: CommandEnvelope) {
    return this.queries.retrieveAttempt(command);
  }

  @CommandHandler(AcquiringCommands.listAttempts)
  listAttempts(command: CommandEnvelope) {
    return this.queries.listAttempts(command);
  }
}
