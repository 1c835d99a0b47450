import { Injectable } from '@nestjs/common';
import {
  AccountCommand,
  CreateSubAccountDto,
  GetAdditionalPayload,
  ListAccountsPayload,
  ResolveOnBehalfOfPayload,
  RetrieveAccountPayload,
} from '@paygrid/contracts';
import { CommandContext, HandleCommand, WriteContext } from '@paygrid/platform';
import { AccountService } from './account.service';

/**
 * The account commands (declared in libs/contracts/src/accounts.commands.ts). Thin on purpose: the
 * pipeline has validated the payload and the actor; AccountService decides.
 */
@Injectable()
export class AccountCommandHandlers {
  constructor(private readonly accounts: AccountService) {}

  @HandleCommand(AccountCommand.list)
  list(payload: ListAccountsPayload, context: CommandContext) {
    return this.accounts.list(context.requireActor(), payload);
  }

  @HandleCommand(AccountCommand.retrieve)
  retrieve(payload: RetrieveAccountPayload, context: CommandContext) {
    return this.accounts.retrieve(context.requireActor(), payload);
  }

  /** In the command-ledger transaction: the account, its event and the stored reply commit together. */
  @HandleCommand(AccountCommand.createSubAccount)
  createSubAccount(payload: CreateSubAccountDto, context: WriteContext) {
    return this.accounts.createSubAccount(context.requireActor(), payload, context.tx.manager);
  }

  @HandleCommand(AccountCommand.getAdditional)
  getAdditional(payload: GetAdditionalPayload) {
    return this.accounts.getAdditional(payload);
  }

  @HandleCommand(AccountCommand.resolveOnBehalfOf)
  resolveOnBehalfOf(payload: ResolveOnBehalfOfPayload, context: CommandContext) {
    return this.accounts.resolveOnBehalfOf(context.requireActor(), payload);
  }
}
