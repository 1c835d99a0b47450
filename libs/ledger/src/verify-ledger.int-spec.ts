import { DataSource } from 'typeorm';
import { Ledger } from './ledger';
import { LedgerDiscrepancy, describeDiscrepancy, verifyLedger } from './verify-ledger';
import { createLedgerTestDatabase, LedgerTestDatabase } from './test/ledger-database';

/**
 * verifyLedger against damage the triggers cannot stop: a cache row edited by hand, and rows written while the
 * ledger's triggers were disabled (as a careless restore would). Each case uses its own owner and reads only the
 * discrepancies that name it.
 */
const ledger = new Ledger({ negativeBuckets: ['network_clearing'] });

describe('verifyLedger', () => {
  let db: LedgerTestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createLedgerTestDatabase('ledger_verify');
    dataSource = db.dataSource;
  });

  afterAll(async () => {
    await db?.close();
  });

  const fund = (reference: string, ownerId: string, amountMinor: bigint) =>
    dataSource.transaction((tx) =>
      ledger.post(tx, {
        reference,
        kind: 'payment.captured',
        postings: [
          { ownerId, currency: 'USD', bucket: 'available', amountMinor },
          { ownerId: 'network', currency: 'USD', bucket: 'network_clearing', amountMinor: -amountMinor },
        ],
      }),
    );

  async function discrepanciesOf(ownerOrReference: string): Promise<LedgerDiscrepancy[]> {
    return (await verifyLedger(dataSource.manager)).filter((found) =>
      'account' in found ? found.account.ownerId === ownerOrReference : found.reference === ownerOrReference,
    );
  }

  /** Runs `sql` with the ledger's own triggers off, in one transaction, as a restore without them would. */
  async function withoutTriggers(sql: string): Promise<void> {
    await dataSource.transaction(async (tx) => {
      for (const table of ['ledger_entries', 'ledger_postings', 'ledger_accounts']) {
        await tx.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
      }
      await tx.query(sql);
      for (const table of ['ledger_entries', 'ledger_postings', 'ledger_accounts']) {
        await tx.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
      }
    });
  }

  it('finds nothing in a ledger written only through post', async () => {
    await fund('clean-1', 'acct_clean', 100n);
    await fund('clean-2', 'acct_clean', 50n);
    expect(await verifyLedger(dataSource.manager)).toEqual([]);
  });

  it('finds a tampered cache row, and the wrong running balance the next posting records from it', async () => {
    const account = { ownerId: 'acct_tamper', currency: 'USD', bucket: 'available' };
    await fund('tamper-1', 'acct_tamper', 100n);
    await dataSource.query(`UPDATE ledger_accounts SET balance = balance + 1 WHERE owner_id = 'acct_tamper'`);
    expect(await discrepanciesOf('acct_tamper')).toEqual([
      { kind: 'balance_mismatch', account, cachedMinor: 101n, recomputedMinor: 100n },
    ]);

    const next = await fund('tamper-2', 'acct_tamper', 10n);
    expect(await discrepanciesOf('acct_tamper')).toEqual([
      { kind: 'balance_mismatch', account, cachedMinor: 111n, recomputedMinor: 110n },
      {
        kind: 'running_balance_mismatch',
        account,
        entryId: next.entry.entryId,
        recordedMinor: 111n,
        expectedMinor: 110n,
      },
    ]);
  });

  it('finds an entry whose postings do not balance', async () => {
    await fund('unbalanced-1', 'acct_unbalanced', 100n);
    await withoutTriggers(
      `INSERT INTO ledger_postings (entry_id, line, ledger_account_id, currency, amount, balance_after)
       SELECT e.id, 3, a.id, a.currency, 7, 107 FROM ledger_entries e, ledger_accounts a
        WHERE e.reference = 'unbalanced-1' AND a.owner_id = 'acct_unbalanced'`,
    );
    const found = await discrepanciesOf('unbalanced-1');
    expect(found).toEqual([
      expect.objectContaining({ kind: 'unbalanced_entry', currency: 'USD', sumMinor: 7n }),
    ]);
    expect(describeDiscrepancy(found[0])).toMatch(
      /^entry \d+ \(unbalanced-1\) does not balance: USD postings sum to 7$/,
    );
  });

  it('finds an entry without postings', async () => {
    await withoutTriggers(`INSERT INTO ledger_entries (reference, kind) VALUES ('bare-1', 'test.bare')`);
    expect(await discrepanciesOf('bare-1')).toEqual([
      expect.objectContaining({ kind: 'entry_without_postings', reference: 'bare-1' }),
    ]);
  });

  it('finds a guarded account whose postings take it below zero', async () => {
    const account = { ownerId: 'acct_overdrawn', currency: 'USD', bucket: 'available' };
    const funded = await fund('overdrawn-1', 'acct_overdrawn', 100n);
    await withoutTriggers(
      `INSERT INTO ledger_postings (entry_id, line, ledger_account_id, currency, amount, balance_after)
       SELECT ${funded.entry.entryId}, 3, a.id, a.currency, -150, -50 FROM ledger_accounts a
        WHERE a.owner_id = 'acct_overdrawn'`,
    );
    const found = await discrepanciesOf('acct_overdrawn');
    expect(found).toContainEqual({
      kind: 'negative_balance',
      account,
      cachedMinor: 100n,
      recomputedMinor: -50n,
    });
    expect(found).toContainEqual({
      kind: 'balance_mismatch',
      account,
      cachedMinor: 100n,
      recomputedMinor: -50n,
    });
  });
});
