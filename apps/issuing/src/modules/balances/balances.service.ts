import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  Actor,
  IssuingBalanceTransactionView,
  IssuingBalanceView,
  ListBalanceTransactionsPayload,
  ListIssuingBalancesPayload,
  Page,
} from '@paygrid/contracts';
import { toMajorNumber } from '@paygrid/money';
import { envelopeA } from '@paygrid/platform';
import { pageOf } from '../../common/paging';
import { BalancePostingRow, BalanceRow, BalancesRepository } from './balances.repository';
import { issuingAmountText, movementKeysOf, transactionTypeOf } from './balance-transaction.types';

/**
 * The issuing balances API (wire-compat §11.10, spec 7.6): each currency the acting account holds an issuing
 * balance in, and the postings that moved it. Reads only; the money itself is the ledger's.
 */
export const BalanceErrors = {
  unavailable: (currency: string) =>
    envelopeA('account_error', 'account_balance_error', `No issuing balance is available in ${currency} for this account`),
};

/** Sandbox and issuing have no margin (collateral) requirement: the margin balance is always zero. */
const NO_MARGIN = '0.00';

@Injectable()
export class BalancesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly balances: BalancesRepository,
  ) {}

  async list(actor: Actor, payload: ListIssuingBalancesPayload): Promise<Page<IssuingBalanceView>> {
    const { items, total } = await this.balances.balances(this.dataSource, actor.account_id, {
      pageNumber: payload.page_number,
      pageSize: payload.page_size,
    });
    return pageOf(items.map(presentBalance), total, payload.page_size);
  }

  async retrieve(actor: Actor, currency: string): Promise<IssuingBalanceView> {
    const { items } = await this.balances.balances(this.dataSource, actor.account_id, { currency, pageNumber: 1, pageSize: 1 });
    if (items.length === 0) throw BalanceErrors.unavailable(currency);
    return presentBalance(items[0]);
  }

  async transactions(actor: Actor, payload: ListBalanceTransactionsPayload): Promise<Page<IssuingBalanceTransactionView>> {
    // Every balance transaction is a posting, complete once it exists: another status matches nothing.
    if (payload.transaction_status !== undefined && payload.transaction_status !== 'COMPLETED') return pageOf([], 0, payload.page_size);
    const { items, total } = await this.balances.postings(this.dataSource, actor.account_id, {
      currency: payload.currency,
      from: payload.start_time === undefined ? undefined : new Date(payload.start_time),
      before: payload.end_time === undefined ? undefined : new Date(payload.end_time),
      movementKeys: payload.transaction_type === undefined ? undefined : movementKeysOf(payload.transaction_type),
      transactionId: payload.transaction_id,
      pageNumber: payload.page_number,
      pageSize: payload.page_size,
    });
    return pageOf(
      items.map((row) => presentTransaction(actor.account_id, row)),
      total,
      payload.page_size,
    );
  }
}

function presentBalance(row: BalanceRow): IssuingBalanceView {
  return {
    balance_id: row.balanceId,
    currency: row.currency,
    available_balance: issuingAmountText(row.availableMinor),
    margin_balance: NO_MARGIN,
    frozen_balance: issuingAmountText(row.frozenMinor),
    create_time: row.createdAt.toISOString(),
    last_trade_time: row.lastTradeAt.toISOString(),
    balance_status: 'ACTIVE',
  };
}

export function presentTransaction(accountId: string, row: BalancePostingRow): IssuingBalanceTransactionView {
  return {
    transaction_id: row.transactionId,
    short_transaction_id: shortTransactionId(row.transactionId),
    account_id: accountId,
    balance_id: row.balanceId,
    transaction_type: transactionTypeOf(row.kind, row.amountMinor),
    currency: row.currency,
    amount: toMajorNumber(row.amountMinor),
    create_time: row.occurredAt.toISOString(),
    complete_time: row.recordedAt.toISOString(),
    transaction_status: 'COMPLETED',
    ending_balance: toMajorNumber(row.balanceAfterMinor),
    description: describe(row),
  };
}

/** What a person reads on a statement line: the object that moved the money. */
function describe(row: BalancePostingRow): string {
  const { metadata } = row;
  if (typeof metadata.transfer_id === 'string') return `Issuing transfer ${metadata.transfer_id}`;
  if (typeof metadata.card_order_id === 'string') return `Card order ${metadata.card_order_id}`;
  if (typeof metadata.deposit_id === 'string') return `Deposit ${metadata.deposit_id}`;
  if (typeof metadata.reason === 'string') return `Card closed (${metadata.reason})`;
  return row.kind;
}

/** The first twelve hex digits of the id, for statements and support conversations. */
export function shortTransactionId(transactionId: string): string {
  return `T${transactionId.replace(/-/g, '').slice(0, 12).toUpperCase()}`;
}
