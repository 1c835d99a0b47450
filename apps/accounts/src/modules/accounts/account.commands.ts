import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  AccountCommands,
  AdditionalDocument,
  CommandEnvelope,
  ResolvedAccount,
} from '@paygrid/contracts';
import { CommandHandler } from '@paygrid/platform';
import { parsePayload, requireActor } from '../../common/payload';
import { AccountPage, AccountView, CreatedSubAccountView } from './account.presenter';
import { AccountService } from './account.service';
import { GetAdditionalDto, ListAccountsDto, ResolveOnBehalfOfDto, RetrieveAccountDto } from './dto/account-queries.dto';
import { CreateSubAccountDto } from '@paygrid/contracts';

/**
 * The account commands on the accounts command topic (contract: libs/contracts/src/accounts.ts).
 * Thin on purpose: check the payload and the actor, hand over to AccountService.
 */
@Injectable()
export class AccountCommandHandlers {
  constructor(private readonly accounts: AccountService) {}

  @CommandHandler(AccountCommands.list)
  list(command: CommandEnvelope): Promise<AccountPage> {
    return this.accounts.list(requireActor(command), parsePayload(ListAccountsDto, command));
  }

  @CommandHandler(AccountCommands.retrieve)
  retrieve(command: CommandEnvelope): Promise<AccountView> {
    return this.accounts.retrieve(requireActor(command), parsePayload(RetrieveAccountDto, command));
  }

  @CommandHandler(AccountCommands.createSubAccount, { mutates: true })
  createSubAccount(command: CommandEnvelope, manager: EntityManager): Promise<CreatedSubAccountView> {
    return this.accounts.createSubAccount(requireActor(command), parsePayload(CreateSubAccountDto, command), manager);
  }

  @CommandHandler(AccountCommands.getAdditional)
  async getAdditional(command: CommandEnvelope): Promise<AdditionalDocument[]> {
    return this.accounts.getAdditional(parsePayload(GetAdditionalDto, command));
  }

  @CommandHandler(AccountCommands.resolveOnBehalfOf)
  resolveOnBehalfOf(command: CommandEnvelope): Promise<ResolvedAccount> {
    return this.accounts.resolveOnBehalfOf(requireActor(command), parsePayload(ResolveOnBehalfOfDto, command));
  }
}
