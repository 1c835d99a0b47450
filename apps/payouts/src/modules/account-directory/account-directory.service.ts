import { Injectable } from '@nestjs/common';
import { Actor } from '@paygrid/contracts';
import { Executor } from '@paygrid/platform';
import { AccountDirectoryRepository } from './account-directory.repository';

/**
 * What payouts asks about accounts it does not own: an account's name (the settlement bank account's
 * `account_name`) and whether an id the merchant gave names the acting account itself (an internal
 * payout's `payout_account_id`, long or short, spec 4.4).
 */
@Injectable()
export class AccountDirectory {
  constructor(private readonly directory: AccountDirectoryRepository) {}

  async nameOf(executor: Executor, accountId: string): Promise<string> {
    return (await this.directory.find(executor, accountId))?.accountName ?? '';
  }

  /**
   * The acting account's long id when `idOrShortId` names it (its uuid, or its short reference id as
   * the accounts service published it), else undefined: a payout may only move money to the caller's
   * own account level.
   */
  async ownAccountId(executor: Executor, actor: Actor, idOrShortId: string): Promise<string | undefined> {
    if (idOrShortId.toLowerCase() === actor.account_id.toLowerCase()) return actor.account_id;
    const entry = await this.directory.findByShortReference(executor, idOrShortId.toUpperCase());
    return entry?.accountId === actor.account_id ? actor.account_id : undefined;
  }
}
