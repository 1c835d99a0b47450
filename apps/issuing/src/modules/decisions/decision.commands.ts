import { Injectable } from '@nestjs/common';
import { IssuingTransactionCommand, NoPayload, SetDecisionEndpointPayload } from '@paygrid/contracts';
import { CommandContext, HandleCommand, WriteContext } from '@paygrid/platform';
import { DecisionService } from './decision.service';

/** The account's decision endpoint (thin). */
@Injectable()
export class DecisionCommands {
  constructor(private readonly decisions: DecisionService) {}

  @HandleCommand(IssuingTransactionCommand.setDecisionEndpoint)
  set(payload: SetDecisionEndpointPayload, context: WriteContext) {
    return this.decisions.set(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingTransactionCommand.retrieveDecisionEndpoint)
  retrieve(_payload: NoPayload, context: CommandContext) {
    return this.decisions.retrieve(context.requireActor());
  }

  @HandleCommand(IssuingTransactionCommand.deleteDecisionEndpoint)
  delete(_payload: NoPayload, context: WriteContext) {
    return this.decisions.delete(context.tx, context.requireActor());
  }
}
