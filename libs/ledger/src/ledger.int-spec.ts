import { DataSource } from 'typeorm';
import { Ledger } from './ledger';
import { InsufficientFundsError, LedgerReferenceConflictError } from './ledger-errors';
import { NewLedgerEntry, NewPosting } from './ledger-types';
import { verifyLedger } from './verify-ledger';
import { createLedgerTestDatabase, LedgerTestDatabase } from './test/ledger-database';

/**
 * The ledger against the real Postgres: what the tables refuse on their own (append-only, balanced entries,
 * no commit of a half-applied entry), posting semantics (idempotent reference, guarded buckets), the guard
 * under concurrency, lock ordering, and the reads.
 */
const ledger = new Ledger({ negativeBuckets: ['network_clearing', 'bank'] });

function capture(reference: string, ownerId: string, amountMinor: bigint, occurredAt?: Date): NewLedgerEntry {
  return {
    reference,
    kind: 'payment.captured',
    occurredAt,
    metadata: { payment_intent_id: `pi_${reference}` },
    postings: [
      { ownerId, currency: 'USD', bucket: 'available', amountMinor },
      { ownerId: 'network', currency: 'USD', bucket: 'network_clearing', amountMinor: -amountMinor },
    ],
  };
}

function move(reference: string, from: NewPosting, toBucket: string): NewLedgerEntry {
  return {
    reference,
    kind: 'test.moved',
    postings: [
      { ...from, amountMinor: -from.amountMinor },
      { ...from, bucket: toBucket },
    ],
  };
}

describe('ledger on Postgres', () => {
  let db: LedgerTestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createLedgerTestDatabase('ledger');
    dataSource = db.dataSource;
  });

  afterAll(async () => {
    await db?.close();
  });

  afterEach(async () => {
    expect(await verifyLedger(dataSource.manager)).toEqual([]);
  });

  it('posts an entry, creating its accounts, with running balances on the postings', async () => {
    const first = await dataSource.transaction((tx) => ledger.post(tx, capture('cap-1', 'acct_post', 1050n)));
    const second = await dataSource.transaction((tx) => ledger.post(tx, capture('cap-2', 'acct_post', 250n)));

    expect(first.created).toBe(true);
    expect(second.entry.postings.map((posting) => posting.balanceAfterMinor)).toEqual([1300n, -1300n]);
    const account = { ownerId: 'acct_post', currency: 'USD', bucket: 'available' };
    expect(await ledger.balance(dataSource.manager, account)).toBe(1300n);
    expect(await ledger.balance(dataSource.manager, { ...account, bucket: 'pending' })).toBe(0n);
    expect(await ledger.entry(dataSource.manager, 'cap-1')).toEqual(first.entry);
  });

  it('posts a repeated reference once, also when the repeats race', async () => {
    const entry = capture('cap-race', 'acct_race', 700n);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => dataSource.transaction((tx) => ledger.post(tx, entry))),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.entry.entryId)).size).toBe(1);

    const later = await dataSource.transaction((tx) => ledger.post(tx, entry));
    expect(later.created).toBe(false);
    expect(later.entry).toEqual(results.find((result) => result.created)?.entry);
    expect(
      await ledger.balance(dataSource.manager, {
        ownerId: 'acct_race',
        currency: 'USD',
        bucket: 'available',
      }),
    ).toBe(700n);
  });

  it('refuses a reference reused for a different movement', async () => {
    await dataSource.transaction((tx) => ledger.post(tx, capture('cap-reuse', 'acct_reuse', 100n)));
    await expect(
      dataSource.transaction((tx) => ledger.post(tx, capture('cap-reuse', 'acct_reuse', 101n))),
    ).rejects.toThrow(LedgerReferenceConflictError);
  });

  it('refuses a debit the bucket cannot cover, naming it, and leaves nothing behind', async () => {
    const funds = { ownerId: 'acct_short', currency: 'USD', bucket: 'available' };
    await dataSource.transaction((tx) => ledger.post(tx, capture('cap-short', 'acct_short', 100n)));

    const error = await dataSource
      .transaction((tx) => ledger.post(tx, move('short-1', { ...funds, amountMinor: 101n }, 'reserved')))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InsufficientFundsError);
    expect(error).toMatchObject({ account: funds, debitMinor: 101n });

    expect(await ledger.balance(dataSource.manager, funds)).toBe(100n);
    expect(await ledger.entry(dataSource.manager, 'short-1')).toBeUndefined();
    expect(await ledger.balances(dataSource.manager, 'acct_short')).toHaveLength(1);
  });

  it('refuses a debit of a bucket that was never funded', async () => {
    const empty = { ownerId: 'acct_empty', currency: 'USD', bucket: 'available', amountMinor: 1n };
    await expect(
      dataSource.transaction((tx) => ledger.post(tx, move('empty-1', empty, 'reserved'))),
    ).rejects.toMatchObject({ name: 'InsufficientFundsError', account: { bucket: 'available' } });
    expect(await ledger.currencies(dataSource.manager, 'acct_empty')).toEqual([]);
  });

  it('cannot commit a transaction that swallowed InsufficientFundsError', async () => {
    const funds = { ownerId: 'acct_swallow', currency: 'USD', bucket: 'available' };
    await dataSource.transaction((tx) => ledger.post(tx, capture('cap-swallow', 'acct_swallow', 10n)));
    await dataSource.transaction((tx) => ledger.post(tx, capture('cap-swallow-b', 'acct_swallow_b', 10n)));

    const committing = dataSource.transaction(async (tx) => {
      const entry: NewLedgerEntry = {
        reference: 'swallow-1',
        kind: 'test.moved',
        postings: [
          { ...funds, amountMinor: -11n },
          { ...funds, ownerId: 'acct_swallow_b', amountMinor: -5n },
          { ...funds, bucket: 'reserved', amountMinor: 16n },
        ],
      };
      await ledger.post(tx, entry).catch((error: unknown) => {
        if (!(error instanceof InsufficientFundsError)) throw error;
      });
    });
    await expect(committing).rejects.toThrow(/has no postings at commit/);
    expect(await ledger.balance(dataSource.manager, { ...funds, ownerId: 'acct_swallow_b' })).toBe(10n);
    expect(await ledger.entry(dataSource.manager, 'swallow-1')).toBeUndefined();
  });

  it('lets exactly the covered debits through when 100 race for a balance that covers 50', async () => {
    const funds = { ownerId: 'acct_busy', currency: 'USD', bucket: 'available' };
    await dataSource.transaction((tx) => ledger.post(tx, capture('cap-busy', 'acct_busy', 5000n)));

    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, (_, index) =>
        dataSource.transaction((tx) =>
          ledger.post(tx, move(`payout-${index}`, { ...funds, amountMinor: 100n }, 'reserved')),
        ),
      ),
    );

    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(50);
    expect(refused).toHaveLength(50);
    for (const outcome of refused) expect(outcome.reason).toBeInstanceOf(InsufficientFundsError);
    expect(await ledger.balance(dataSource.manager, funds)).toBe(0n);
    expect(await ledger.balance(dataSource.manager, { ...funds, bucket: 'reserved' })).toBe(5000n);
    const [{ lowest }] = await dataSource.query(
      `SELECT min(p.balance_after)::text AS lowest FROM ledger_postings p
         JOIN ledger_accounts a ON a.id = p.ledger_account_id
        WHERE a.owner_id = 'acct_busy' AND a.bucket = 'available'`,
    );
    expect(lowest).toBe('0');
  });

  it('never deadlocks when entries cross the same accounts in opposite directions', async () => {
    const left = { ownerId: 'acct_left', currency: 'USD', bucket: 'available' };
    const right = { ownerId: 'acct_right', currency: 'USD', bucket: 'available' };
    await dataSource.transaction((tx) => ledger.post(tx, capture('cap-left', 'acct_left', 10_000n)));
    await dataSource.transaction((tx) => ledger.post(tx, capture('cap-right', 'acct_right', 10_000n)));

    const transfer = (reference: string, from: typeof left, to: typeof left): NewLedgerEntry => ({
      reference,
      kind: 'test.transferred',
      postings: [
        { ...from, amountMinor: -1n },
        { ...to, amountMinor: 1n },
      ],
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 60 }, (_, index) =>
        dataSource.transaction(async (tx) => {
          // Both directions, each holding its locks while it also touches the hot counterpart account.
          const [from, to] = index % 2 === 0 ? [left, right] : [right, left];
          await ledger.post(tx, transfer(`cross-${index}`, from, to));
          await ledger.post(tx, capture(`cross-cap-${index}`, from.ownerId, 1n));
        }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    expect(await ledger.balance(dataSource.manager, left)).toBe(10_030n);
    expect(await ledger.balance(dataSource.manager, right)).toBe(10_030n);
  });

  describe('append-only tables', () => {
    beforeAll(async () => {
      await dataSource.transaction((tx) => ledger.post(tx, capture('cap-frozen', 'acct_frozen', 500n)));
    });

    it.each([
      ['updating an entry', `UPDATE ledger_entries SET kind = 'test.changed' WHERE reference = 'cap-frozen'`],
      ['deleting an entry', `DELETE FROM ledger_entries WHERE reference = 'cap-frozen'`],
      ['updating a posting', `UPDATE ledger_postings SET amount = amount * 2`],
      ['deleting a posting', `DELETE FROM ledger_postings`],
      ['truncating the postings', `TRUNCATE ledger_postings CASCADE`],
      ['truncating the entries', `TRUNCATE ledger_entries CASCADE`],
      ['deleting an account', `DELETE FROM ledger_accounts WHERE owner_id = 'acct_frozen'`],
      ['renaming an account', `UPDATE ledger_accounts SET bucket = 'pending' WHERE owner_id = 'acct_frozen'`],
      [
        'letting a guarded account go negative',
        `UPDATE ledger_accounts SET allows_negative = true WHERE owner_id = 'acct_frozen'`,
      ],
    ])('refuses %s', async (_case, sql) => {
      await expect(dataSource.query(sql)).rejects.toThrow(/append-only: (UPDATE|DELETE|TRUNCATE) refused/);
    });

    it('refuses a guarded cache row below zero', async () => {
      await expect(
        dataSource.query(`UPDATE ledger_accounts SET balance = -1 WHERE owner_id = 'acct_frozen'`),
      ).rejects.toThrow(/ledger account acct_frozen\/USD\/available may not go negative/);
    });

    it('refuses hand-written postings that do not balance, and an entry without postings', async () => {
      await expect(
        dataSource.query(
          `INSERT INTO ledger_postings (entry_id, line, ledger_account_id, currency, amount, balance_after)
           SELECT e.id, 9, a.id, a.currency, 1, 0 FROM ledger_entries e, ledger_accounts a
            WHERE e.reference = 'cap-frozen' AND a.owner_id = 'acct_frozen'`,
        ),
      ).rejects.toThrow(/does not balance: USD postings sum to 1/);
      await expect(
        dataSource.query(`INSERT INTO ledger_entries (reference, kind) VALUES ('bare', 'test.bare')`),
      ).rejects.toThrow(/has no postings at commit/);
    });

    it('refuses a posting in another currency than its account', async () => {
      await expect(
        dataSource.query(
          `INSERT INTO ledger_postings (entry_id, line, ledger_account_id, currency, amount, balance_after)
           SELECT e.id, 9, a.id, 'EUR', 1, 0 FROM ledger_entries e, ledger_accounts a
            WHERE e.reference = 'cap-frozen' AND a.owner_id = 'acct_frozen'`,
        ),
      ).rejects.toThrow(/ledger_postings_account/);
    });
  });

  describe('reads', () => {
    const owner = 'acct_reads';
    const at = (day: number) => new Date(Date.UTC(2025, 0, day));

    beforeAll(async () => {
      for (let day = 1; day <= 5; day += 1) {
        await dataSource.transaction((tx) =>
          ledger.post(tx, capture(`reads-${day}`, owner, BigInt(day * 100), at(day))),
        );
      }
      await dataSource.transaction((tx) =>
        ledger.post(tx, {
          reference: 'reads-jpy',
          kind: 'payment.captured',
          occurredAt: at(6),
          postings: [
            { ownerId: owner, currency: 'JPY', bucket: 'pending', amountMinor: 5000n },
            { ownerId: 'network', currency: 'JPY', bucket: 'network_clearing', amountMinor: -5000n },
          ],
        }),
      );
      await dataSource.transaction((tx) =>
        ledger.post(tx, {
          ...move(
            'reads-reserve',
            { ownerId: owner, currency: 'USD', bucket: 'available', amountMinor: 300n },
            'reserved',
          ),
          occurredAt: at(7),
        }),
      );
    });

    it('lists the currencies and the buckets of an owner', async () => {
      expect(await ledger.currencies(dataSource.manager, owner)).toEqual(['JPY', 'USD']);
      const balances = await ledger.balances(dataSource.manager, owner, 'USD');
      expect(
        balances.map(({ bucket, balanceMinor, allowsNegative }) => ({
          bucket,
          balanceMinor,
          allowsNegative,
        })),
      ).toEqual([
        { bucket: 'available', balanceMinor: 1200n, allowsNegative: false },
        { bucket: 'reserved', balanceMinor: 300n, allowsNegative: false },
      ]);
      expect(await ledger.balances(dataSource.manager, owner)).toHaveLength(3);
    });

    it('pages the owner postings newest first with the total', async () => {
      const query = { ownerId: owner, pageSize: 3 };
      const first = await ledger.postings(dataSource.manager, { ...query, pageNumber: 1 });
      expect(first.totalItems).toBe(8);
      expect(
        first.items.map((item) => [item.reference, item.bucket, item.amountMinor, item.balanceAfterMinor]),
      ).toEqual([
        ['reads-reserve', 'reserved', 300n, 300n],
        ['reads-reserve', 'available', -300n, 1200n],
        ['reads-jpy', 'pending', 5000n, 5000n],
      ]);
      const last = await ledger.postings(dataSource.manager, { ...query, pageNumber: 3 });
      expect(last.items.map((item) => item.reference)).toEqual(['reads-2', 'reads-1']);
      expect(last.items[1]).toMatchObject({
        kind: 'payment.captured',
        occurredAt: at(1),
        metadata: { payment_intent_id: 'pi_reads-1' },
      });
      expect(await ledger.postings(dataSource.manager, { ...query, pageNumber: 4 })).toEqual({
        items: [],
        totalItems: 8,
      });
    });

    it('filters the postings by currency, bucket, kind, reference and time', async () => {
      const list = (filter: object) =>
        ledger
          .postings(dataSource.manager, { ownerId: owner, pageNumber: 1, pageSize: 50, ...filter })
          .then((page) => page.items.map((item) => item.reference));
      expect(await list({ currency: 'JPY' })).toEqual(['reads-jpy']);
      expect(await list({ buckets: ['reserved'] })).toEqual(['reads-reserve']);
      expect(await list({ kinds: ['test.moved'] })).toEqual(['reads-reserve', 'reads-reserve']);
      expect(await list({ reference: 'reads-3' })).toEqual(['reads-3']);
      expect(await list({ occurredFrom: at(2), occurredBefore: at(4), currency: 'USD' })).toEqual([
        'reads-3',
        'reads-2',
      ]);
      expect(await list({ currency: 'EUR' })).toEqual([]);
    });

    it('pages the entries that touch the owner, each with both sides', async () => {
      const page = await ledger.entries(dataSource.manager, {
        ownerId: owner,
        currency: 'USD',
        pageNumber: 1,
        pageSize: 2,
      });
      expect(page.totalItems).toBe(6);
      expect(page.items.map((entry) => entry.reference)).toEqual(['reads-reserve', 'reads-5']);
      expect(page.items[1].postings.map((posting) => [posting.ownerId, posting.amountMinor])).toEqual([
        [owner, 500n],
        ['network', -500n],
      ]);
      const network = await ledger.entries(dataSource.manager, {
        ownerId: 'network',
        kinds: ['payment.captured'],
        reference: 'reads-jpy',
        pageNumber: 1,
        pageSize: 10,
      });
      expect(network.items.map((entry) => entry.reference)).toEqual(['reads-jpy']);
    });
  });
});
