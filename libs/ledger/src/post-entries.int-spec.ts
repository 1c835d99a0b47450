import { DataSource } from 'typeorm';
import { Ledger } from './ledger';
import { InsufficientFundsError, LedgerReferenceConflictError } from './ledger-errors';
import { NewLedgerEntry } from './ledger-types';
import { verifyLedger } from './verify-ledger';
import { createLedgerTestDatabase, LedgerTestDatabase } from './test/ledger-database';

/**
 * Ledger.postAll on the real Postgres: a batch of entries in one statement moves exactly what the same entries
 * posted one by one move (running balances included, which verifyLedger replays), repeats move nothing but are
 * still checked, and a guarded bucket is judged at each entry's place in the sequence, not on the batch's net.
 */
const ledger = new Ledger({ negativeBuckets: ['clearing'] });

function credit(reference: string, ownerId: string, bucket: string, amountMinor: bigint): NewLedgerEntry {
  return {
    reference,
    kind: 'test.credited',
    postings: [
      { ownerId, currency: 'USD', bucket, amountMinor },
      { ownerId, currency: 'USD', bucket: 'clearing', amountMinor: -amountMinor },
    ],
  };
}

function transfer(reference: string, ownerId: string, from: string, to: string, amountMinor: bigint): NewLedgerEntry {
  return {
    reference,
    kind: 'test.moved',
    postings: [
      { ownerId, currency: 'USD', bucket: from, amountMinor: -amountMinor },
      { ownerId, currency: 'USD', bucket: to, amountMinor },
    ],
  };
}

describe('Ledger.postAll on Postgres', () => {
  let db: LedgerTestDatabase;
  let dataSource: DataSource;
  let statements: number;

  beforeAll(async () => {
    db = await createLedgerTestDatabase('ledger_batch');
    dataSource = db.dataSource;
  });

  afterAll(async () => {
    await db?.close();
  });

  afterEach(async () => {
    expect(await verifyLedger(dataSource.manager)).toEqual([]);
  });

  /** Runs `work` in a transaction whose statements are counted (BEGIN and COMMIT aside). */
  async function counted<T>(work: (tx: DataSource['manager']) => Promise<T>): Promise<T> {
    statements = 0;
    return dataSource.transaction(async (tx) => {
      const query = tx.query.bind(tx);
      const countingTx = Object.create(tx, {
        query: { value: (sql: string, params?: unknown[]) => ((statements += 1), query(sql, params)) },
      });
      return work(countingTx);
    });
  }

  it('posts a sequence on one account in one statement, each posting with its running balance', async () => {
    const created = await counted((tx) =>
      ledger.postAll(tx, [
        credit('b1-in', 'acct_seq', 'pending', 1000n),
        transfer('b1-settle', 'acct_seq', 'pending', 'available', 600n),
        credit('b1-in-2', 'acct_seq', 'pending', 50n),
        transfer('b1-out', 'acct_seq', 'available', 'reserved', 600n),
      ]),
    );

    expect(created).toEqual([true, true, true, true]);
    expect(statements).toBe(1);
    expect(await ledger.balances(dataSource.manager, 'acct_seq')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ bucket: 'pending', balanceMinor: 450n }),
        expect.objectContaining({ bucket: 'available', balanceMinor: 0n }),
        expect.objectContaining({ bucket: 'reserved', balanceMinor: 600n }),
        expect.objectContaining({ bucket: 'clearing', balanceMinor: -1050n }),
      ]),
    );
    const settle = await ledger.entry(dataSource.manager, 'b1-settle');
    expect(settle?.postings.map((posting) => [posting.bucket, posting.balanceAfterMinor])).toEqual([
      ['pending', 400n],
      ['available', 600n],
    ]);
  });

  it('moves nothing for a stored reference or one repeated in the batch, and says which it created', async () => {
    await dataSource.transaction((tx) => ledger.postAll(tx, [credit('b2-in', 'acct_rep', 'pending', 300n)]));

    const created = await counted((tx) =>
      ledger.postAll(tx, [
        credit('b2-in', 'acct_rep', 'pending', 300n),
        credit('b2-new', 'acct_rep', 'pending', 20n),
        credit('b2-new', 'acct_rep', 'pending', 20n),
      ]),
    );

    expect(created).toEqual([false, true, false]);
    expect(statements).toBe(1);
    expect(await ledger.balance(dataSource.manager, { ownerId: 'acct_rep', currency: 'USD', bucket: 'pending' })).toBe(320n);
  });

  it('refuses a stored reference reused for a different movement, and one given twice differently', async () => {
    await dataSource.transaction((tx) => ledger.postAll(tx, [credit('b3-in', 'acct_conflict', 'pending', 300n)]));

    await expect(
      dataSource.transaction((tx) => ledger.postAll(tx, [credit('b3-in', 'acct_conflict', 'pending', 301n)])),
    ).rejects.toThrow(LedgerReferenceConflictError);
    await expect(
      dataSource.transaction((tx) =>
        ledger.postAll(tx, [credit('b3-x', 'acct_conflict', 'pending', 1n), credit('b3-x', 'acct_conflict', 'pending', 2n)]),
      ),
    ).rejects.toThrow(LedgerReferenceConflictError);
  });

  it('refuses a debit that only a later entry of the batch would cover, and leaves nothing behind', async () => {
    await dataSource.transaction((tx) => ledger.postAll(tx, [credit('b4-in', 'acct_order', 'available', 100n)]));

    const refusal = dataSource.transaction((tx) =>
      ledger.postAll(tx, [
        transfer('b4-out', 'acct_order', 'available', 'reserved', 150n),
        credit('b4-in-2', 'acct_order', 'available', 100n),
      ]),
    );

    await expect(refusal).rejects.toThrow(InsufficientFundsError);
    await expect(refusal).rejects.toMatchObject({
      reference: 'b4-out',
      account: { ownerId: 'acct_order', currency: 'USD', bucket: 'available' },
      debitMinor: 150n,
    });
    expect(await ledger.entry(dataSource.manager, 'b4-in-2')).toBeUndefined();
    expect(await ledger.balance(dataSource.manager, { ownerId: 'acct_order', currency: 'USD', bucket: 'available' })).toBe(100n);
  });

  it('accepts the same debit once the credit comes first', async () => {
    await dataSource.transaction((tx) => ledger.postAll(tx, [credit('b5-in', 'acct_first', 'available', 100n)]));

    await dataSource.transaction((tx) =>
      ledger.postAll(tx, [
        credit('b5-in-2', 'acct_first', 'available', 100n),
        transfer('b5-out', 'acct_first', 'available', 'reserved', 150n),
      ]),
    );

    expect(await ledger.balance(dataSource.manager, { ownerId: 'acct_first', currency: 'USD', bucket: 'available' })).toBe(50n);
  });

  it('refuses a batch debiting a guarded account that does not exist yet', async () => {
    await expect(
      dataSource.transaction((tx) => ledger.postAll(tx, [transfer('b6-out', 'acct_none', 'available', 'reserved', 1n)])),
    ).rejects.toThrow(InsufficientFundsError);
  });

  it('posts nothing and spends no statement for an empty batch', async () => {
    expect(await counted((tx) => ledger.postAll(tx, []))).toEqual([]);
    expect(statements).toBe(0);
  });
});
