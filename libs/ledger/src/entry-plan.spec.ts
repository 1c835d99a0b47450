import fc from 'fast-check';
import { planEntry, compareAccounts, accountKeyOf } from './entry-plan';
import { InvalidLedgerEntryError, UnbalancedEntryError } from './ledger-errors';
import { NewLedgerEntry, NewPosting } from './ledger-types';
import { COUNTERPART_BUCKETS, balancedPostings, sumsByCurrency } from './test/ledger-arbitraries';

const negative = new Set<string>(COUNTERPART_BUCKETS);

function entryOf(postings: NewPosting[]): NewLedgerEntry {
  return { reference: 'ref-1', kind: 'test.moved', postings };
}

const capture: NewPosting[] = [
  { ownerId: 'acct_a', currency: 'USD', bucket: 'pending', amountMinor: 1050n },
  { ownerId: 'network', currency: 'USD', bucket: 'network_clearing', amountMinor: -1050n },
];

describe('planEntry', () => {
  it('accepts any balanced entry and nets each account once, in lock order', () => {
    fc.assert(
      fc.property(balancedPostings, (postings) => {
        const plan = planEntry(entryOf(postings), negative);
        expect(plan.lines).toEqual(postings);
        const sorted = [...plan.accounts].sort(compareAccounts);
        expect(plan.accounts).toEqual(sorted);
        expect(new Set(plan.accounts.map(accountKeyOf)).size).toBe(plan.accounts.length);
        for (const account of plan.accounts) {
          const lines = postings.filter((line) => accountKeyOf(line) === accountKeyOf(account));
          expect(account.deltaMinor).toBe(lines.reduce((sum, line) => sum + line.amountMinor, 0n));
          expect(account.allowsNegative).toBe(negative.has(account.bucket));
        }
        const deltas = plan.accounts.map((account) => ({ ...account, amountMinor: account.deltaMinor }));
        expect(sumsByCurrency(deltas).size).toBe(0);
      }),
    );
  });

  it('plans the same lock order whatever the order of the lines', () => {
    fc.assert(
      fc.property(
        balancedPostings.chain((postings) =>
          fc.tuple(fc.constant(postings), fc.shuffledSubarray(postings, { minLength: postings.length })),
        ),
        ([postings, shuffled]) => {
          const order = (lines: NewPosting[]) =>
            planEntry(entryOf(lines), negative).accounts.map(accountKeyOf);
          expect(order(shuffled)).toEqual(order(postings));
        },
      ),
    );
  });

  it('refuses any entry that does not sum to zero in some currency, naming it and the sum', () => {
    fc.assert(
      fc.property(
        balancedPostings,
        fc.nat({ max: 11 }),
        fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }).filter((skew) => skew !== 0n),
        (postings, index, skew) => {
          const target = postings[index % postings.length];
          fc.pre(target.amountMinor + skew !== 0n);
          const skewed = postings.map((line) =>
            line === target ? { ...line, amountMinor: line.amountMinor + skew } : line,
          );
          const error = captureError(() => planEntry(entryOf(skewed), negative));
          expect(error).toBeInstanceOf(UnbalancedEntryError);
          expect((error as UnbalancedEntryError).currency).toBe(target.currency);
          expect((error as UnbalancedEntryError).sumMinor).toBe(skew);
        },
      ),
    );
  });

  it('names the first unbalanced currency in code order when several are off', () => {
    const postings: NewPosting[] = [
      { ownerId: 'a', currency: 'USD', bucket: 'available', amountMinor: 5n },
      { ownerId: 'a', currency: 'JPY', bucket: 'available', amountMinor: 7n },
    ];
    expect(() => planEntry(entryOf(postings), negative)).toThrow(
      'ledger entry "ref-1" does not balance: JPY postings sum to 7',
    );
  });

  it.each<[string, Partial<NewLedgerEntry>]>([
    ['an empty reference', { reference: '' }],
    ['a reference over 255 characters', { reference: 'r'.repeat(256) }],
    ['a kind that is not dotted snake_case', { kind: 'Payment Captured' }],
    ['an invalid occurredAt', { occurredAt: new Date('nope') }],
    ['metadata that is an array', { metadata: [] as unknown as NewLedgerEntry['metadata'] }],
    ['metadata holding a bigint', { metadata: { amount: 5n } as unknown as NewLedgerEntry['metadata'] }],
    ['a single posting', { postings: capture.slice(0, 1) }],
    ['no postings', { postings: [] }],
    ['a zero amount', { postings: capture.map((line) => ({ ...line, amountMinor: 0n })) }],
    [
      'a number amount',
      { postings: capture.map((line) => ({ ...line, amountMinor: 1 as unknown as bigint })) },
    ],
    [
      'an amount over the storable range',
      {
        postings: [
          { ...capture[0], amountMinor: 10n ** 15n + 1n },
          { ...capture[1], amountMinor: -(10n ** 15n + 1n) },
        ],
      },
    ],
    ['an unsupported currency', { postings: capture.map((line) => ({ ...line, currency: 'usd' })) }],
    ['a bucket with capitals', { postings: [{ ...capture[0], bucket: 'Pending' }, capture[1]] }],
    ['an empty owner', { postings: [{ ...capture[0], ownerId: '' }, capture[1]] }],
  ])('refuses %s', (_case, change) => {
    expect(() => planEntry({ ...entryOf(capture), ...change }, negative)).toThrow(InvalidLedgerEntryError);
  });

  it('keeps metadata as JSON and leaves occurredAt to the database when absent', () => {
    const plan = planEntry(
      { ...entryOf(capture), metadata: { payment_intent_id: 'pi_1', attempt: 2 } },
      negative,
    );
    expect(plan.metadataJson).toBe('{"payment_intent_id":"pi_1","attempt":2}');
    expect(plan.occurredAt).toBeNull();
  });
});

function captureError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
