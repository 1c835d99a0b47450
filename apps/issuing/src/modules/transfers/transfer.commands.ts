import { Injectable } from '@nestjs/common';
import { CreateIssuingTransferPayload, IssuingFundsCommand, IssuingTransferRef, ListIssuingTransfersPayload } from '@paygrid/contracts';
import { CommandContext, HandleCommand, HandleJob, WriteContext } from '@paygrid/platform';
import { TRANSFER_JOB, TransferService } from './transfer.service';

/** Issuing transfer commands (thin), and the job that completes a transfer. */
@Injectable()
export class TransferCommands {
  constructor(private readonly transfers: TransferService) {}

  @HandleCommand(IssuingFundsCommand.createTransfer)
  create(payload: CreateIssuingTransferPayload, context: WriteContext) {
    return this.transfers.create(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingFundsCommand.retrieveTransfer)
  retrieve(payload: IssuingTransferRef, context: CommandContext) {
    return this.transfers.retrieve(context.requireActor(), payload.transfer_id);
  }

  @HandleCommand(IssuingFundsCommand.listTransfers)
  list(payload: ListIssuingTransfersPayload, context: CommandContext) {
    return this.transfers.list(context.requireActor(), payload);
  }

  @HandleJob(TRANSFER_JOB)
  process(transferId: string): Promise<void> {
    return this.transfers.process(transferId);
  }
}
