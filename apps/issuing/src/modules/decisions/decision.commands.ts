import { Injectable } from '@nestjs/common';
import { IssuingTransactionCommand, NoPayload, SetDecisionEndpointPayload } from '@paygrid/contracts';
import { CommandContext, HandleCommand, StagedContext, WriteContext } from '@paygrid/platform';
import { DecisionService } from './decision.service';

/** The account's decision endpoint (thin). */
@Injectable()
export class DecisionCommands {
  constructor(private readonly decisions: DecisionService) {}

  /**
   * Staged: the URL's host is resolved and checked with no transaction open (a DNS answer may take the
   * resolver's timeout, holding a pooled connection idle-in-transaction), then the endpoint is written under
   * the command ledger; a duplicate of an applied command is answered from the ledger before any lookup.
   */
  @HandleCommand(IssuingTransactionCommand.setDecisionEndpoint, { staged: true })
  async set(payload: SetDecisionEndpointPayload, context: StagedContext) {
    const actor = context.requireActor();
    await this.decisions.checkUrl(payload.url);
    const { result } = await context.complete((tx) => this.decisions.set(tx, actor, payload));
    return result;
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
