import { Injectable } from '@nestjs/common';
import { Ledger, LedgerBalance, LedgerEntry, NewLedgerEntry, PostResult } from '@paygrid/ledger';
import { Executor, rowsOf } from '@paygrid/platform';
import { FUNDS_OF_BUCKET, fundsKey, IntakeSnapshot } from './batch-plan';
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

  /** Posts entries in order with one statement, reading nothing back (Ledger.postAll). */
  postAll(executor: Executor, entries: readonly NewLedgerEntry[]): Promise<boolean[]> {
    return this.ledger.postAll(executor, entries);
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

  /**
   * lockFunds for a whole batch of acquiring events, in one round trip: every ledger account of the given
   * merchants and currencies locked in the ledger's order, their funds, and which of `references` are stored.
   * Call it only once the batch's intake lock is held (intake-claim.ts): this statement's snapshot then
   * includes everything an earlier batch of these merchants committed, so `stored` is exact.
   */
  async lockIntake(
    executor: Executor,
    sets: readonly { merchantId: string; currency: string }[],
    references: readonly string[],
  ): Promise<IntakeSnapshot> {
    const [row] = rowsOf<{ funds: { owner_id: string; currency: string; bucket: string; balance: string }[]; stored: string[] }>(
      await executor.query(
        `WITH locked AS (
           SELECT owner_id, currency, bucket, balance::text AS balance FROM ledger_accounts
            WHERE (owner_id, currency) IN (SELECT * FROM unnest($1::text[], $2::text[]))
            ORDER BY owner_id COLLATE "C", currency COLLATE "C", bucket COLLATE "C" FOR UPDATE
         )
         SELECT (SELECT coalesce(json_agg(locked), '[]') FROM locked) AS funds,
                (SELECT coalesce(json_agg(reference), '[]') FROM ledger_entries WHERE reference = ANY($3::text[])) AS stored`,
        [sets.map((set) => set.merchantId), sets.map((set) => set.currency), [...new Set(references)]],
      ),
    );
    const funds = new Map<string, MerchantFunds>();
    for (const set of sets) funds.set(fundsKey(set.merchantId, set.currency), { pending: 0n, available: 0n, refundAdvance: 0n });
    for (const account of row.funds) {
      const field = FUNDS_OF_BUCKET[account.bucket] as keyof MerchantFunds | undefined;
      const key = fundsKey(account.owner_id, account.currency);
      const known = funds.get(key);
      if (field !== undefined && known !== undefined) funds.set(key, { ...known, [field]: BigInt(account.balance) });
    }
    return { funds, stored: new Set(row.stored) };
  }
}
