import { Injectable } from '@nestjs/common';
import { Ledger, LedgerBalance, LedgerEntry, NewLedgerEntry, PostResult } from '@paygrid/ledger';
import { Executor, rowsOf } from '@paygrid/platform';
import { COUNTERPART_BUCKETS, MerchantFunds } from './posting-rules';

/**
 * The payouts ledger (libs/ledger in the payouts database) with the chart of posting-rules.ts: the
 * counterparts may go negative, every merchant bucket is guarded. Adds the one read the rules need that
 * the library leaves to its callers: a merchant's funds in a currency read under lock, so a split
 * computed from them (a refund from available then pending, a repaid advance) cannot be invalidated by a
 * concurrent payout before it is posted.
 */
@Injectable()
export class MerchantLedger {
  private readonly ledger = new Ledger({ negativeBuckets: COUNTERPART_BUCKETS });

  post(executor: Executor, entry: NewLedgerEntry): Promise<PostResult> {
    return this.ledger.post(executor, entry);
  }

  entry(executor: Executor, reference: string): Promise<LedgerEntry | undefined> {
    return this.ledger.entry(executor, reference);
  }

  balances(executor: Executor, merchantId: string, currency?: string): Promise<LedgerBalance[]> {
    return this.ledger.balances(executor, merchantId, currency);
  }

  /**
   * Locks every ledger account of the merchant in the currency and returns the funds the rules split
   * on. Rows are locked in the ledger's own order (owner, currency, bucket by code unit: COLLATE "C"),
   * so this never deadlocks with a post. One round trip.
   */
  async lockFunds(executor: Executor, merchantId: string, currency: string): Promise<MerchantFunds> {
    const rows = rowsOf<{ bucket: string; balance: string }>(
      await executor.query(
        `SELECT bucket, balance::text AS balance FROM ledger_accounts
          WHERE owner_id = $1 AND currency = $2 ORDER BY bucket COLLATE "C" FOR UPDATE`,
        [merchantId, currency],
      ),
    );
    const of = (bucket: string) => BigInt(rows.find((row) => row.bucket === bucket)?.balance ?? '0');
    return { pending: of('pending'), available: of('available'), refundAdvance: of('refund_advance') };
  }
}
