import { Injectable } from '@nestjs/common';
import {
  BankAccountIdPayload,
  CreateBankAccountPayload,
  ListBankAccountsPayload,
  PayoutCommand,
  UpdateBankAccountPayload,
} from '@paygrid/contracts';
import { CommandContext, HandleCommand, WriteContext } from '@paygrid/platform';
import { BankAccountService } from './bank-account.service';

/** The bank account commands (spec 4.3, wire-compat §9.12), scoped to the acting account. */
@Injectable()
export class BankAccountCommands {
  constructor(private readonly bankAccounts: BankAccountService) {}

  @HandleCommand(PayoutCommand.createBankAccount)
  create(payload: CreateBankAccountPayload, context: WriteContext) {
    return this.bankAccounts.create(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(PayoutCommand.updateBankAccount)
  update(payload: UpdateBankAccountPayload, context: WriteContext) {
    return this.bankAccounts.update(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(PayoutCommand.listBankAccounts)
  list(payload: ListBankAccountsPayload, context: CommandContext) {
    return this.bankAccounts.list(context.requireActor().account_id, payload);
  }

  @HandleCommand(PayoutCommand.retrieveBankAccount)
  retrieve(payload: BankAccountIdPayload, context: CommandContext) {
    return this.bankAccounts.retrieve(context.requireActor().account_id, payload.id);
  }
}
