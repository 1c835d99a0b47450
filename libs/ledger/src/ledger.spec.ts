import fc from 'fast-check';
import { Ledger } from './ledger';
import { InsufficientFundsError, LedgerReferenceConflictError, UnbalancedEntryError } from './ledger-errors';
import { LedgerExecutor, NewLedgerEntry } from './ledger-types';
import { balancedPostings } from './test/ledger-arbitraries';

/** Answers queries from a script and records them: these tests are about what post does around its SQL. */
function scriptedExecutor(
  ...answers: unknown[]
): LedgerExecutor & { calls: { sql: string; params: unknown[] }[] } {
  const calls: { sql: string; params: unknown[] }[] = [];
  return {
    calls,
    async query(sql: string, params: unknown[]) {
      calls.push({ sql, params });
      if (answers.length === 0) throw new Error(`unexpected query: ${sql.slice(0, 60)}`);
      return answers.shift();
    },
  };
}

const ledger = new Ledger({ negativeBuckets: ['network_clearing'] });

const capture: NewLedgerEntry = {
  reference: 'evt_1',
  kind: 'payment.captured',
  postings: [
    { ownerId: 'acct_a', currency: 'USD', bucket: 'pending', amountMinor: 1050n },
    { ownerId: 'network', currency: 'USD', bucket: 'network_clearing', amountMinor: -1050n },
  ],
};

const occurredAt = new Date('2025-01-02T03:04:05.000Z');

function postedRow() {
  return {
    entry_id: '7',
    occurred_at: occurredAt,
    recorded_at: occurredAt,
    applied: [
      { owner_id: 'acct_a', currency: 'USD', bucket: 'pending', balance: '1050' },
      { owner_id: 'network', currency: 'USD', bucket: 'network_clearing', balance: '-99999999999999999' },
    ],
    posted: [
      { id: '12', line: 1 },
      { id: '13', line: 2 },
    ],
  };
}

describe('Ledger.post', () => {
  it('refuses an unbalanced entry without touching the database', async () => {
    await fc.assert(
      fc.asyncProperty(balancedPostings, async (postings) => {
        const db = scriptedExecutor();
        const [first, ...rest] = postings;
        const skewed = [{ ...first, amountMinor: first.amountMinor * 2n }, ...rest];
        await expect(ledger.post(db, { ...capture, postings: skewed })).rejects.toThrow(UnbalancedEntryError);
        expect(db.calls).toHaveLength(0);
      }),
    );
  });

  it('posts a new entry in one statement and returns its postings with their running balances', async () => {
    const db = scriptedExecutor([postedRow()]);
    const result = await ledger.post(db, capture);
    expect(db.calls).toHaveLength(1);
    expect(db.calls[0].params.slice(4, 9)).toEqual([
      ['acct_a', 'network'],
      ['USD', 'USD'],
      ['pending', 'network_clearing'],
      [false, true],
      ['1050', '-1050'],
    ]);
    expect(result).toEqual({
      created: true,
      entry: {
        entryId: '7',
        reference: 'evt_1',
        kind: 'payment.captured',
        occurredAt,
        recordedAt: occurredAt,
        metadata: {},
        postings: [
          { ...capture.postings[0], postingId: '12', line: 1, balanceAfterMinor: 1050n },
          { ...capture.postings[1], postingId: '13', line: 2, balanceAfterMinor: -99999999999999999n },
        ],
      },
    });
  });

  it('names the bucket and the debit when an account was not applied', async () => {
    const payout: NewLedgerEntry = {
      reference: 'po_1:reserve',
      kind: 'payout.reserved',
      postings: [
        { ownerId: 'acct_a', currency: 'USD', bucket: 'available', amountMinor: -500n },
        { ownerId: 'acct_a', currency: 'USD', bucket: 'reserved', amountMinor: 500n },
      ],
    };
    const db = scriptedExecutor([
      {
        ...postedRow(),
        applied: [{ owner_id: 'acct_a', currency: 'USD', bucket: 'reserved', balance: '500' }],
        posted: [],
      },
    ]);
    const error = await ledger.post(db, payout).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InsufficientFundsError);
    expect(error).toMatchObject({
      reference: 'po_1:reserve',
      account: { ownerId: 'acct_a', currency: 'USD', bucket: 'available' },
      debitMinor: 500n,
    });
    expect((error as Error).message).toBe(
      'insufficient funds for ledger entry "po_1:reserve": acct_a/USD/available (debit 500)',
    );
  });

  describe('with a reference posted before', () => {
    const repeatRow = { entry_id: null, occurred_at: null, recorded_at: null, applied: [], posted: [] };
    const storedRow = {
      entry_id: '7',
      reference: 'evt_1',
      kind: 'payment.captured',
      occurred_at: occurredAt,
      recorded_at: occurredAt,
      metadata: { source: 'first' },
      postings: [
        {
          posting_id: '13',
          line: 2,
          owner_id: 'network',
          currency: 'USD',
          bucket: 'network_clearing',
          amount: '-1050',
          balance_after: '-1050',
        },
        {
          posting_id: '12',
          line: 1,
          owner_id: 'acct_a',
          currency: 'USD',
          bucket: 'pending',
          amount: '1050',
          balance_after: '1050',
        },
      ],
    };

    it('returns the stored entry, read in a second statement, and posts nothing', async () => {
      const db = scriptedExecutor([repeatRow], [storedRow]);
      const result = await ledger.post(db, capture);
      expect(db.calls).toHaveLength(2);
      expect(result.created).toBe(false);
      expect(result.entry).toMatchObject({ entryId: '7', metadata: { source: 'first' } });
    });

    it('refuses the same reference for a different movement', async () => {
      const db = scriptedExecutor([repeatRow], [storedRow]);
      const other = capture.postings.map((line) => ({ ...line, amountMinor: line.amountMinor * 2n }));
      await expect(ledger.post(db, { ...capture, postings: other })).rejects.toThrow(
        LedgerReferenceConflictError,
      );
    });

    it('refuses the same reference for another kind of entry', async () => {
      const db = scriptedExecutor([repeatRow], [storedRow]);
      await expect(ledger.post(db, { ...capture, kind: 'payment.refunded' })).rejects.toThrow(
        LedgerReferenceConflictError,
      );
    });
  });

  it('refuses a negativeBuckets declaration that is not a bucket name', () => {
    expect(() => new Ledger({ negativeBuckets: ['Network Clearing'] })).toThrow('negativeBuckets must match');
  });
});
