/**
 * fast-check generators shared by the unit and integration property tests: entries built from transfers
 * (each moves a positive amount from one account to another, so any list of them balances per currency).
 */
import fc from 'fast-check';
import { NewPosting } from '../ledger-types';

export const OWNERS = ['acct_a', 'acct_b', 'acct_c'] as const;
export const GUARDED_BUCKETS = ['available', 'pending', 'reserved'] as const;
export const COUNTERPART_BUCKETS = ['network_clearing', 'bank'] as const;
export const CURRENCIES = ['USD', 'JPY', 'KWD'] as const;

export interface Transfer {
  from: { ownerId: string; bucket: string };
  to: { ownerId: string; bucket: string };
  currency: string;
  amountMinor: bigint;
}

const owner = fc.constantFrom(...OWNERS);
const account = fc.record({
  ownerId: owner,
  bucket: fc.constantFrom(...GUARDED_BUCKETS, ...COUNTERPART_BUCKETS),
});
const guardedAccount = fc.record({ ownerId: owner, bucket: fc.constantFrom(...GUARDED_BUCKETS) });
const counterpartAccount = fc.record({ ownerId: owner, bucket: fc.constantFrom(...COUNTERPART_BUCKETS) });

/**
 * Transfers of 1 to `maxAmountMinor`. `fundingWeight` makes money come from a counterpart bucket that many
 * times as often as from a guarded one (so sequences build balances to spend); without it any bucket is equally
 * likely on either side.
 */
export function transferUpTo(maxAmountMinor: bigint, fundingWeight?: number): fc.Arbitrary<Transfer> {
  const from =
    fundingWeight === undefined
      ? account
      : fc.oneof(
          { weight: fundingWeight, arbitrary: counterpartAccount },
          { weight: 1, arbitrary: guardedAccount },
        );
  return fc.record({
    from,
    to: account,
    currency: fc.constantFrom(...CURRENCIES),
    amountMinor: fc.bigInt({ min: 1n, max: maxAmountMinor }),
  });
}

export const transfer = transferUpTo(10n ** 9n);

export function postingsOf(transfers: readonly Transfer[]): NewPosting[] {
  return transfers.flatMap(({ from, to, currency, amountMinor }) => [
    { ...from, currency, amountMinor: -amountMinor },
    { ...to, currency, amountMinor },
  ]);
}

/** The postings of 1 to 6 transfers, shuffled: a balanced entry of 2 to 12 lines. */
export const balancedPostings: fc.Arbitrary<NewPosting[]> = fc
  .array(transfer, { minLength: 1, maxLength: 6 })
  .chain((transfers) => fc.shuffledSubarray(postingsOf(transfers), { minLength: transfers.length * 2 }));

/** Sums per currency, ignoring zero sums. */
export function sumsByCurrency(postings: readonly NewPosting[]): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const posting of postings)
    sums.set(posting.currency, (sums.get(posting.currency) ?? 0n) + posting.amountMinor);
  for (const [currency, sum] of sums) if (sum === 0n) sums.delete(currency);
  return sums;
}
