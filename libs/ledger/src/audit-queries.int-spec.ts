import { Ledger } from './ledger';
import { bucketTotalsAgainst, positiveTotals } from './audit-queries';
import { createLedgerTestDatabase, LedgerTestDatabase } from './test/ledger-database';

/**
 * The owning services' audit questions against a real ledger: bucket sums compared with what a
 * service's records say they must be (both directions: the ledger holds more, or a record has no money),
 * and counterparts that turned positive.
 */
const ledger = new Ledger({ negativeBuckets: ['outside'] });

describe('ledger audit queries', () => {
  let db: LedgerTestDatabase | undefined;
  afterAll(() => db?.close());

  it('names every bucket whose sum differs from the records, and every positive counterpart', async () => {
    db = await createLedgerTestDatabase('ledger_audit_queries');
    const { dataSource } = db;
    const move = (reference: string, ownerId: string, bucket: string, amountMinor: bigint) =>
      dataSource.transaction((tx) =>
        ledger.post(tx, {
          reference,
          kind: 'test.move',
          postings: [
            { ownerId, currency: 'USD', bucket, amountMinor },
            { ownerId, currency: 'USD', bucket: 'outside', amountMinor: -amountMinor },
          ],
        }),
      );
    await move('held-a', 'owner_a', 'held', 500n);
    await move('held-b', 'owner_b', 'held', 300n);
    await move('other-a', 'owner_a', 'other', 900n);
    // What the service's records say: a holds 500 (agrees), b should hold 200, c should hold 75 (no money).
    const records = `SELECT owner_id, 'USD' AS currency, $2::text AS bucket, total
                       FROM (VALUES ('owner_a', 500), ('owner_b', 200), ('owner_c', 75)) AS r (owner_id, total)`;

    expect(await bucketTotalsAgainst(dataSource.manager, ['held'], { sql: records, params: ['held'] })).toEqual([
      { ownerId: 'owner_b', currency: 'USD', bucket: 'held', ledgerMinor: 300n, expectedMinor: 200n },
      { ownerId: 'owner_c', currency: 'USD', bucket: 'held', ledgerMinor: 0n, expectedMinor: 75n },
    ]);
    expect(await positiveTotals(dataSource.manager, ['outside'])).toEqual([]);
    await dataSource.transaction((tx) =>
      ledger.post(tx, {
        reference: 'back-out',
        kind: 'test.move',
        postings: [
          { ownerId: 'owner_b', currency: 'USD', bucket: 'outside', amountMinor: 1000n },
          { ownerId: 'owner_a', currency: 'USD', bucket: 'other', amountMinor: -900n },
          { ownerId: 'owner_b', currency: 'USD', bucket: 'held', amountMinor: -100n },
        ],
      }),
    );
    expect(await positiveTotals(dataSource.manager, ['outside'])).toEqual([{ ownerId: 'owner_b', currency: 'USD', bucket: 'outside', totalMinor: 700n }]);
  });
});
