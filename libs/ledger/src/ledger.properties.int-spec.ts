import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { Ledger } from './ledger';
import { InsufficientFundsError } from './ledger-errors';
import { LedgerAccountKey } from './ledger-types';
import { verifyLedger } from './verify-ledger';
import { createLedgerTestDatabase, LedgerTestDatabase } from './test/ledger-database';
import { COUNTERPART_BUCKETS, Transfer, postingsOf, transferUpTo } from './test/ledger-arbitraries';

/**
 * The posting rules as properties, on the real Postgres: a random sequence of entries (each a few random
 * transfers between guarded buckets and counterpart buckets) is applied one transaction per entry. An entry is
 * accepted exactly when no guarded bucket would go below zero (a model of balances predicts which), a refused
 * one changes nothing, and afterwards the postings sum to zero per currency and every cached balance equals both
 * the model and the balance recomputed from the postings.
 */
const ledger = new Ledger({ negativeBuckets: [...COUNTERPART_BUCKETS] });

describe('ledger posting rules (property)', () => {
  let db: LedgerTestDatabase;
  let dataSource: DataSource;
  let run = 0;

  beforeAll(async () => {
    db = await createLedgerTestDatabase('ledger_props');
    dataSource = db.dataSource;
  });

  afterAll(async () => {
    await db?.close();
  });

  it('accepts exactly the entries that keep guarded buckets non-negative and keeps the books equal', async () => {
    const entries = fc.array(fc.array(transferUpTo(100n, 2), { minLength: 1, maxLength: 3 }), {
      minLength: 1,
      maxLength: 16,
    });
    await fc.assert(
      fc.asyncProperty(entries, async (transfersPerEntry) => {
        run += 1;
        const prefix = `r${run}_`;
        const model = new Map<string, bigint>();
        const keyOf = (account: LedgerAccountKey) =>
          `${account.ownerId}|${account.currency}|${account.bucket}`;

        for (const [index, transfers] of transfersPerEntry.entries()) {
          const postings = postingsOf(transfers.map((one: Transfer) => prefixed(one, prefix)));
          const after = new Map(model);
          for (const posting of postings)
            after.set(keyOf(posting), (after.get(keyOf(posting)) ?? 0n) + posting.amountMinor);
          const overdrawn = [...after]
            .filter(([key, balance]) => balance < 0n && !ledger.allowsNegative(key.split('|')[2]))
            .map(([key]) => key)
            .sort();

          const outcome = await dataSource
            .transaction((tx) =>
              ledger.post(tx, { reference: `${prefix}${index}`, kind: 'test.moved', postings }),
            )
            .then(
              () => undefined,
              (error: unknown) => error,
            );

          if (overdrawn.length === 0) {
            expect(outcome).toBeUndefined();
            for (const [key, balance] of after) model.set(key, balance);
          } else {
            expect(outcome).toBeInstanceOf(InsufficientFundsError);
            const refused = (outcome as InsufficientFundsError).refused.map(({ account }) => keyOf(account));
            expect(refused.sort()).toEqual(overdrawn);
          }
        }

        const balances = await dataSource.query(
          `SELECT owner_id, currency, bucket, balance::text AS balance FROM ledger_accounts WHERE owner_id LIKE $1`,
          [`${prefix}%`],
        );
        const stored = new Map<string, bigint>(
          balances.map((row: Record<string, string>) => [
            keyOf({ ownerId: row.owner_id, currency: row.currency, bucket: row.bucket }),
            BigInt(row.balance),
          ]),
        );
        expect(stored).toEqual(model);
        const sums = await dataSource.query(
          `SELECT p.currency, sum(p.amount)::text AS total FROM ledger_postings p
             JOIN ledger_accounts a ON a.id = p.ledger_account_id
            WHERE a.owner_id LIKE $1 GROUP BY p.currency HAVING sum(p.amount) <> 0`,
          [`${prefix}%`],
        );
        expect(sums).toEqual([]);
      }),
      { numRuns: 30 },
    );
    expect(await verifyLedger(dataSource.manager)).toEqual([]);
  });
});

function prefixed(transfer: Transfer, prefix: string): Transfer {
  return {
    ...transfer,
    from: { ...transfer.from, ownerId: prefix + transfer.from.ownerId },
    to: { ...transfer.to, ownerId: prefix + transfer.to.ownerId },
  };
}
