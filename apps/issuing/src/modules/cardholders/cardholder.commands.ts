import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import { CardholderRef, CreateCardholderPayload, IssuingCommand, ListCardholdersPayload, UpdateCardholderPayload } from '@paygrid/contracts';
import { CommandContext, HandleCommand, HandleJob, LOGGER, runInTransaction, WriteContext } from '@paygrid/platform';
import { CardholderService, KYC_REVIEW_JOB } from './cardholder.service';

/** Cardholder commands (thin) and the KYC review job. */
@Injectable()
export class CardholderCommands {
  constructor(
    private readonly cardholders: CardholderService,
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @HandleCommand(IssuingCommand.createCardholder)
  create(payload: CreateCardholderPayload, context: WriteContext) {
    return this.cardholders.create(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingCommand.listCardholders)
  list(payload: ListCardholdersPayload, context: CommandContext) {
    return this.cardholders.list(context.requireActor(), payload);
  }

  @HandleCommand(IssuingCommand.retrieveCardholder)
  retrieve(payload: CardholderRef, context: CommandContext) {
    return this.cardholders.retrieve(context.requireActor(), payload.cardholder_id);
  }

  @HandleCommand(IssuingCommand.updateCardholder)
  update(payload: UpdateCardholderPayload, context: WriteContext) {
    return this.cardholders.update(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingCommand.deleteCardholder)
  delete(payload: CardholderRef, context: WriteContext) {
    return this.cardholders.delete(context.tx, context.requireActor(), payload.cardholder_id);
  }

  @HandleJob(KYC_REVIEW_JOB)
  async review(subjectId: string): Promise<void> {
    await runInTransaction(this.dataSource, this.logger, (tx) => this.cardholders.completeReview(tx, subjectId));
  }
}
