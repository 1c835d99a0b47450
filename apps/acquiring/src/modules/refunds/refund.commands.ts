import { Injectable } from '@nestjs/common';
import {
  AcquiringCommand,
  CreateRefundPayload,
  ListRefundsPayload,
  RefundIdPayload,
} from '@paygrid/contracts';
import { CommandContext, HandleCommand, WriteContext } from '@paygrid/platform';
import { RefundService } from './refund.service';

/** The refund commands: thin; the service decides. */
@Injectable()
export class RefundCommands {
  constructor(private readonly refunds: RefundService) {}

  @HandleCommand(AcquiringCommand.createRefund)
  create(payload: CreateRefundPayload, context: WriteContext) {
    return this.refunds.create(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(AcquiringCommand.retrieveRefund)
  retrieve(payload: RefundIdPayload, context: CommandContext) {
    return this.refunds.retrieve(context.requireActor(), payload);
  }

  @HandleCommand(AcquiringCommand.listRefunds)
  list(payload: ListRefundsPayload, context: CommandContext) {
    return this.refunds.list(context.requireActor(), payload);
  }
}
