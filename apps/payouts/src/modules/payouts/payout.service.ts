import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Actor, CreatePayoutPayload, ListPayoutsPayload, Page, PayoutView } from '@paygrid/contracts';
import { newId } from '@paygrid/ids';
import { parsePositiveAmount } from '@paygrid/money';
import { TransactionContext } from '@paygrid/platform';
import { pageOf, windowOf } from '../../common/paging';
import { PayoutsErrors } from '../../common/payouts-errors';
import { AccountDirectory } from '../account-directory/account-directory.service';
import { MerchantLedger } from '../balances/merchant-ledger';
import { payoutReserveEntry } from '../balances/posting-rules';
import { BankAccountRepository } from '../bank-accounts/bank-account.repository';
import { PayoutRail } from './payout-rail';
import { announcePayout } from './payout.events';
import { presentPayout } from './payout.presenter';
import { PayoutRepository } from './payout.repository';
import { PayoutDestination } from './payout.types';

/**
 * Creating and reading payouts (spec 4.4, wire-compat §9.11). A payout reserves its funds in the
 * transaction that records it: the ledger refuses a reservation the available balance cannot cover
 * (InsufficientFundsError, mapped to a 400) and the whole transaction, payout row included, rolls back,
 * so a refused payout changes nothing. Concurrent payouts serialise on the available balance's row.
 */
@Injectable()
export class PayoutService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly payouts: PayoutRepository,
    private readonly bankAccounts: BankAccountRepository,
    private readonly directory: AccountDirectory,
    private readonly ledger: MerchantLedger,
    private readonly rail: PayoutRail,
  ) {}

  async create(tx: TransactionContext, actor: Actor, payload: CreatePayoutPayload): Promise<PayoutView> {
    const currency = payload.payout_currency;
    const amountMinor = parsePositiveAmount(payload.payout_amount, currency);
    const destination = await this.destinationOf(tx, actor, payload);
    const id = newId('po');
    const payout = await this.payouts.insert(tx.manager, {
      id,
      accountId: actor.account_id,
      masterAccountId: actor.master_account_id,
      currency,
      amountMinor,
      statementDescriptor: payload.statement_descriptor,
      internalNote: payload.internal_note ?? '',
      ...destination,
      status: 'INITIATED',
    });
    await announcePayout(tx.manager, payout);
    await this.rail.scheduleFirstStep(tx, id);
    // Last: the reserve locks the available balance's row until the commit, and every payout of the
    // account waits on that row, so it is held for as few statements as possible. If it is refused, the
    // payout row and its event roll back with it.
    await this.ledger.post(
      tx.manager,
      payoutReserveEntry(
        { reference: `payout:${id}:reserve`, kind: 'payout.reserved', merchantId: actor.account_id, currency, metadata: { payout_id: id } },
        amountMinor,
      ),
    );
    return presentPayout(payout);
  }

  async retrieve(accountId: string, id: string): Promise<PayoutView> {
    const payout = await this.payouts.find(this.dataSource, accountId, id);
    if (!payout) throw PayoutsErrors.payoutNotFound();
    return presentPayout(payout);
  }

  async list(accountId: string, query: ListPayoutsPayload): Promise<Page<PayoutView>> {
    const filter = {
      accountId,
      status: query.payout_status,
      createdFrom: query.start_time === undefined ? undefined : new Date(query.start_time),
      createdTo: query.end_time === undefined ? undefined : new Date(query.end_time),
    };
    const { total, items } = await this.payouts.list(this.dataSource, filter, windowOf(query));
    return pageOf(query, total, items.map(presentPayout));
  }

  /**
   * Internal (payout_account_id: the caller's own account level, long or short id) or to the settlement
   * bank account of the currency, which must exist and be Valid.
   */
  private async destinationOf(
    tx: TransactionContext,
    actor: Actor,
    payload: CreatePayoutPayload,
  ): Promise<{ destination: PayoutDestination; bankAccountId: string | null; payoutAccountId: string | null }> {
    if (payload.payout_account_id !== undefined) {
      const own = await this.directory.ownAccountId(tx.manager, actor, payload.payout_account_id);
      if (!own) throw PayoutsErrors.notOwnAccount();
      return { destination: 'INTERNAL', bankAccountId: null, payoutAccountId: own };
    }
    const bankAccount = await this.bankAccounts.forCurrency(tx.manager, actor.account_id, payload.payout_currency);
    if (!bankAccount) throw PayoutsErrors.bankAccountMissing(payload.payout_currency);
    if (bankAccount.status !== 'Valid') throw PayoutsErrors.bankAccountInvalid(payload.payout_currency);
    return { destination: 'BANK_ACCOUNT', bankAccountId: bankAccount.id, payoutAccountId: null };
  }
}
