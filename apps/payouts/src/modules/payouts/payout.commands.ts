import { Injectable } from '@nestjs/common';
import { CreatePayoutPayload, ListPayoutsPayload, PayoutCommand, PayoutIdPayload } from '@paygrid/contracts';
import { CommandContext, HandleCommand, WriteContext } from '@paygrid/platform';
import { PayoutService } from './payout.service';

/** The payout commands (spec 4.4, wire-compat §9.11), scoped to the acting account. */
@Injectable()
export class PayoutCommands {
  constructor(private readonly payouts: PayoutService) {}

  @HandleCommand(PayoutCommand.createPayout)
  create(payload: CreatePayoutPayload, context: WriteContext) {
    return this.payouts.create(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(PayoutCommand.listPayouts)
  list(payload: ListPayoutsPayload, context: CommandContext) {
    return this.payouts.list(context.requireActor().account_id, payload);
  }

  @HandleCommand(PayoutCommand.retrievePayout)
  retrieve(payload: PayoutIdPayload, context: CommandContext) {
    return this.payouts.retrieve(context.requireActor().account_id, payload.id);
  }
}
