import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BalanceView, ListBalancesPayload, Page } from '@paygrid/contracts';
import { LedgerBalance } from '@paygrid/ledger';
import { formatAmount } from '@paygrid/money';
import { pageOf } from '../../common/paging';
import { MerchantLedger } from './merchant-ledger';

/**
 * Payment balances (wire-compat §9.10) as the ledger holds them: `available_balance` is the available
 * bucket, `pending_balance` the pending one, per currency of the acting account only (x-on-behalf-of
 * selects a sub-account; nobody sees another account's money). A currency never held answers zeros.
 */
@Injectable()
export class BalanceService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly ledger: MerchantLedger,
  ) {}

  async retrieve(accountId: string, currency: string): Promise<BalanceView> {
    return presentBalance(currency, await this.ledger.balances(this.dataSource, accountId, currency));
  }

  /** Every currency the account has held, in code order; one query for all of them. */
  async list(accountId: string, query: ListBalancesPayload): Promise<Page<BalanceView>> {
    const all = await this.ledger.balances(this.dataSource, accountId);
    const currencies = [...new Set(all.map((balance) => balance.currency))];
    const start = (query.page_number - 1) * query.page_size;
    const page = currencies.slice(start, start + query.page_size);
    return pageOf(
      query,
      currencies.length,
      page.map((currency) => presentBalance(currency, all.filter((balance) => balance.currency === currency))),
    );
  }
}

export function presentBalance(currency: string, balances: LedgerBalance[]): BalanceView {
  const of = (bucket: string) => balances.find((balance) => balance.bucket === bucket)?.balanceMinor ?? 0n;
  return {
    currency,
    available_balance: formatAmount(of('available'), currency),
    pending_balance: formatAmount(of('pending'), currency),
  };
}
