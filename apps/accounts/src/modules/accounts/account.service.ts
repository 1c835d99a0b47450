import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  AccountPage,
  AccountView,
  Actor,
  AdditionalDocument,
  CreatedSubAccountView,
  CreateSubAccountDto,
  GetAdditionalPayload,
  ListAccountsPayload,
  ResolvedAccount,
  ResolveOnBehalfOfPayload,
  RetrieveAccountPayload,
} from '@paygrid/contracts';
import { Executor } from '@paygrid/platform';
import { ACCOUNTS_CONFIG, AccountsConfig } from '../../config';
import { Account, isMaster } from './account.types';
import { AccountErrors } from './account.errors';
import { recordAccountEvent } from './account.events';
import { presentAccount, presentCreated, presentPage } from './account.presenter';
import { AccountRepository } from './account.repository';
import { canActFor, canView, isListed, listScopeOf } from './account.visibility';
import { additionalDocumentsFor } from './additional-documents.table';
import { toNewAccount } from './sub-account.mapper';

/**
 * One method per account use case. Payloads arrive validated against their contract classes (the
 * command pipeline, cross-field rules included); visibility is decided by account.visibility.ts on
 * the stored parent links, never on the actor's own claims.
 */
@Injectable()
export class AccountService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: AccountRepository,
    @Inject(ACCOUNTS_CONFIG) private readonly config: Pick<AccountsConfig, 'ACCOUNT_REVIEW_DELAY_MS'>,
  ) {}

  async list(actor: Actor, query: ListAccountsPayload): Promise<AccountPage> {
    const acting = await this.actingAccount(this.dataSource, actor);
    const scope = listScopeOf(acting);
    if (scope.kind === 'self') {
      const onPage = query.page_number === 1 ? [acting] : [];
      return presentPage(onPage, 1, query.page_size);
    }
    const { total, accounts } = await this.accounts.listFamily(this.dataSource, scope.masterId, {
      limit: query.page_size,
      offset: (query.page_number - 1) * query.page_size,
    });
    return presentPage(accounts, total, query.page_size);
  }

  async retrieve(actor: Actor, query: RetrieveAccountPayload): Promise<AccountView> {
    const acting = await this.actingAccount(this.dataSource, actor);
    const target = await this.accounts.findById(this.dataSource, query.account_id);
    if (!target || !isListed(target) || !canView(acting, target)) throw AccountErrors.notFound();
    return presentAccount(target);
  }

  /** Runs in the command-ledger transaction: the account, its event and the stored reply commit together. */
  async createSubAccount(actor: Actor, body: CreateSubAccountDto, manager: Executor): Promise<CreatedSubAccountView> {
    const master = await this.actingAccount(manager, actor);
    if (!isMaster(master)) throw AccountErrors.masterRequired();
    if (master.status !== 'ACTIVE') throw AccountErrors.notActive(master.status);

    const created = await this.accounts.insert(manager, toNewAccount(body, master), {
      reviewDelayMs: this.config.ACCOUNT_REVIEW_DELAY_MS,
    });
    if (!created) throw new Error('account insert returned no row');
    await recordAccountEvent(manager, 'account.created', created);
    return presentCreated(created, body.business_type ?? created.businessCode[0]);
  }

  getAdditional(query: GetAdditionalPayload): AdditionalDocument[] {
    return additionalDocumentsFor(query.country, query.business_code);
  }

  async resolveOnBehalfOf(actor: Actor, query: ResolveOnBehalfOfPayload): Promise<ResolvedAccount> {
    const [caller, target] = await Promise.all([
      this.accounts.findById(this.dataSource, actor.account_id),
      this.accounts.findById(this.dataSource, query.target_account_id),
    ]);
    if (!caller || !target || !canActFor(caller, target)) throw AccountErrors.subAccountNotFound();
    return {
      account_id: target.accountId,
      master_account_id: caller.accountId,
      short_reference_id: target.shortReferenceId,
    };
  }

  /** The acting account as stored; a missing or closed one is refused like any unknown account. */
  private async actingAccount(executor: Executor, actor: Actor): Promise<Account> {
    const acting = await this.accounts.findById(executor, actor.account_id);
    if (!acting || !isListed(acting)) throw AccountErrors.notFound();
    return acting;
  }
}
