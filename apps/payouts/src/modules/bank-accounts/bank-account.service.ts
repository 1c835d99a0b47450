import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  Actor,
  BankAccountFields,
  BankAccountView,
  BankCodeType,
  CreateBankAccountPayload,
  ListBankAccountsPayload,
  Page,
  UpdateBankAccountBody,
  UpdateBankAccountPayload,
  validatePayload,
} from '@paygrid/contracts';
import { Errors, Executor, TransactionContext } from '@paygrid/platform';
import { pageOf, windowOf } from '../../common/paging';
import { PayoutsErrors } from '../../common/payouts-errors';
import { AccountDirectory } from '../account-directory/account-directory.service';
import { BankAccountRepository } from './bank-account.repository';
import { BankAccount, BankDetails, sandboxAccountStatus } from './bank-account.types';
import { presentBankAccount } from './bank-account.presenter';

/**
 * Settlement bank accounts: one per account and currency, where that currency's external payouts go.
 * The currency-dependent rules of spec 4.3 (which bank_code_type, bank_branch_code for CAD) are the
 * contract's BankAccountFields; an update re-checks them against the stored currency, since its body
 * carries none.
 */
@Injectable()
export class BankAccountService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: BankAccountRepository,
    private readonly directory: AccountDirectory,
  ) {}

  async create(tx: TransactionContext, actor: Actor, payload: CreateBankAccountPayload): Promise<BankAccountView> {
    const created = await this.accounts.insert(tx.manager, {
      id: randomUUID(),
      accountId: actor.account_id,
      currency: payload.currency,
      ...detailsOf(payload),
      status: sandboxAccountStatus(payload.account_number),
    });
    if (!created) throw PayoutsErrors.bankAccountExists(payload.currency);
    return this.present(tx.manager, created);
  }

  async update(tx: TransactionContext, actor: Actor, payload: UpdateBankAccountPayload): Promise<BankAccountView> {
    const { id, ...body } = payload;
    const current = await this.accounts.find(tx.manager, actor.account_id, id, { lock: true });
    if (!current) throw PayoutsErrors.bankAccountNotFound();
    const checked = validatePayload(BankAccountFields, { ...body, currency: current.currency });
    if (!checked.ok) throw Errors.invalidRequest(checked.problems.join('; '));
    const updated = await this.accounts.update(tx.manager, actor.account_id, id, {
      ...detailsOf(body),
      status: sandboxAccountStatus(body.account_number),
    });
    if (!updated) throw PayoutsErrors.bankAccountNotFound();
    return this.present(tx.manager, updated);
  }

  async retrieve(accountId: string, id: string): Promise<BankAccountView> {
    const account = await this.accounts.find(this.dataSource, accountId, id);
    if (!account) throw PayoutsErrors.bankAccountNotFound();
    return this.present(this.dataSource, account);
  }

  async list(accountId: string, query: ListBankAccountsPayload): Promise<Page<BankAccountView>> {
    const { total, items } = await this.accounts.list(this.dataSource, accountId, windowOf(query));
    const name = await this.directory.nameOf(this.dataSource, accountId);
    return pageOf(query, total, items.map((account) => presentBankAccount(account, name)));
  }

  private async present(executor: Executor, account: BankAccount): Promise<BankAccountView> {
    return presentBankAccount(account, await this.directory.nameOf(executor, account.accountId));
  }
}

function detailsOf(body: UpdateBankAccountBody): BankDetails {
  return {
    accountNumber: body.account_number,
    bankName: body.bank_name,
    swiftCode: body.swift_code,
    bankCountryCode: body.bank_country_code,
    bankAddress: body.bank_address,
    bankCodeType: (body.bank_code_type as BankCodeType | undefined) ?? null,
    bankCodeValue: body.bank_code_value ?? null,
    bankBranchCode: body.bank_branch_code ?? null,
  };
}
