import { Injectable } from '@nestjs/common';
import { BucketTotal, BucketTotalMismatch, bucketTotalsAgainst, positiveTotals } from '@paygrid/ledger';
import { Executor, rowsOf } from '@paygrid/platform';
import { Buckets } from '../balances/issuing-balances';

/**
 * The issuing audit's own SQL, beside the library's checks (verifyLedger): the in-flight buckets
 * against the card orders that hold money in them, each order's entries against its status, and the
 * sandbox funding counterpart's sign. Everything is recomputed from the postings, never the cache.
 */

/** Recharges reserve on the account, withdrawals on the card, until the order finishes. */
const IN_FLIGHT_BUCKETS = [Buckets.rechargeInFlight, Buckets.withdrawInFlight];
const OPEN_MONEY_ORDERS = `
SELECT CASE order_type WHEN 'CARD_RECHARGE' THEN account_id ELSE card_id END AS owner_id, currency,
       CASE order_type WHEN 'CARD_RECHARGE' THEN $2 ELSE $3 END AS bucket, sum(amount_minor) AS total
  FROM card_orders
 WHERE order_type IN ('CARD_RECHARGE', 'CARD_WITHDRAW') AND order_status IN ('PENDING', 'PROCESSING')
 GROUP BY 1, 2, 3`;

/**
 * A money order has its reserve from the start, then exactly the closing entry of its outcome:
 * settle on SUCCESS, release on FAILED, neither while open.
 */
const ORDER_ENTRIES = `
SELECT o.card_order_id::text AS order_id, o.order_type, o.order_status,
       array_remove(ARRAY[
         CASE WHEN r.id IS NULL THEN 'no reserve entry' END,
         CASE WHEN (s.id IS NOT NULL) <> (o.order_status = 'SUCCESS') THEN
           CASE WHEN s.id IS NULL THEN 'no settle entry' ELSE 'a settle entry' END END,
         CASE WHEN (x.id IS NOT NULL) <> (o.order_status = 'FAILED') THEN
           CASE WHEN x.id IS NULL THEN 'no release entry' ELSE 'a release entry' END END
       ], NULL) AS problems
  FROM card_orders o
  LEFT JOIN ledger_entries r ON r.reference = 'card_order:' || o.card_order_id || ':reserve'
  LEFT JOIN ledger_entries s ON s.reference = 'card_order:' || o.card_order_id || ':settle'
  LEFT JOIN ledger_entries x ON x.reference = 'card_order:' || o.card_order_id || ':release'
 WHERE o.order_type IN ('CARD_RECHARGE', 'CARD_WITHDRAW') AND o.amount_minor > 0
   AND (r.id IS NULL OR (s.id IS NOT NULL) <> (o.order_status = 'SUCCESS') OR (x.id IS NOT NULL) <> (o.order_status = 'FAILED'))
 ORDER BY o.card_order_id`;

const COUNTS = `SELECT (SELECT count(*) FROM ledger_accounts)::int AS accounts, (SELECT count(*) FROM ledger_entries)::int AS entries`;

@Injectable()
export class IssuingLedgerAuditRepository {
  inFlightMismatches(executor: Executor): Promise<BucketTotalMismatch[]> {
    return bucketTotalsAgainst(executor, IN_FLIGHT_BUCKETS, { sql: OPEN_MONEY_ORDERS, params: IN_FLIGHT_BUCKETS });
  }

  async ordersWithWrongEntries(executor: Executor): Promise<{ orderId: string; orderType: string; status: string; problems: string[] }[]> {
    const rows = rowsOf<{ order_id: string; order_type: string; order_status: string; problems: string[] }>(await executor.query(ORDER_ENTRIES));
    return rows.map((row) => ({ orderId: row.order_id, orderType: row.order_type, status: row.order_status, problems: row.problems }));
  }

  /** Sandbox funding is money from outside: its counterpart may only be zero or negative. */
  positiveFunding(executor: Executor): Promise<BucketTotal[]> {
    return positiveTotals(executor, [Buckets.sandboxFunding]);
  }

  async counts(executor: Executor): Promise<{ accounts: number; entries: number }> {
    const [row] = rowsOf<{ accounts: number; entries: number }>(await executor.query(COUNTS));
    return row;
  }
}
