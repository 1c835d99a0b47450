import { describeOutcome, reasonOf } from './migrate-databases';

describe('npm run migrate output', () => {
  const database = 'paygrid_accounts';

  it('says how many migrations an app got, or that it was up to date', () => {
    expect(describeOutcome({ app: 'accounts', database, applied: ['A1', 'B2'] })).toBe(
      'accounts: 2 migrations applied',
    );
    expect(describeOutcome({ app: 'accounts', database, applied: ['A1'] })).toBe(
      'accounts: 1 migration applied',
    );
    expect(describeOutcome({ app: 'accounts', database, applied: [] })).toBe('accounts: up to date');
  });

  it('names why an app failed, also when node-postgres gives an error without a message', () => {
    expect(
      describeOutcome({ app: 'accounts', database, error: new Error('relation "x" already exists') }),
    ).toBe('accounts: failed: relation "x" already exists');
    const refused = Object.assign(new Error(''), { code: 'ECONNREFUSED' });
    expect(reasonOf(new AggregateError([refused, new Error('connect ECONNREFUSED ::1:5432')], ''))).toBe(
      'ECONNREFUSED; connect ECONNREFUSED ::1:5432',
    );
  });
});
