import { censusSection, StatementCounters, statementShares } from './statement-census';

const counters = (
  database: string,
  query: string,
  calls: number,
  ms: number,
  extra: Partial<StatementCounters> = {},
) => ({
  database,
  query,
  calls,
  plans: 0,
  execMs: ms,
  planMs: 0,
  blocks: 0,
  walBytes: 0,
  ...extra,
});

describe('statementShares', () => {
  it("ranks the run's statements by execution and planning time, per operation of the run", () => {
    const before = new Map([
      ['1:a', counters('paygrid_acquiring_bench', 'INSERT INTO a', 100, 50)],
      ['1:b', counters('paygrid_acquiring_bench', 'UPDATE b', 10, 1)],
    ]);
    const after = new Map([
      ['1:a', counters('paygrid_acquiring_bench', 'INSERT INTO a', 300, 90)],
      [
        '1:b',
        counters('paygrid_acquiring_bench', 'UPDATE b', 60, 41, { plans: 50, planMs: 20, blocks: 500 }),
      ],
      ['2:c', counters('paygrid_webhooks_bench', 'SELECT\n   c   FROM c', 40, 12, { walBytes: 4_000 })],
    ]);

    expect(statementShares(before, after, 20, '_bench')).toEqual([
      {
        database: 'acquiring',
        statement: 'UPDATE b',
        msPerOperation: 3,
        callsPerOperation: 2.5,
        plansPerCall: 1,
        blocksPerCall: 10,
        walBytesPerOperation: 0,
      },
      {
        database: 'acquiring',
        statement: 'INSERT INTO a',
        msPerOperation: 2,
        callsPerOperation: 10,
        plansPerCall: 0,
        blocksPerCall: 0,
        walBytesPerOperation: 0,
      },
      {
        database: 'webhooks',
        statement: 'SELECT c FROM c',
        msPerOperation: 0.6,
        callsPerOperation: 2,
        plansPerCall: 0,
        blocksPerCall: 0,
        walBytesPerOperation: 200,
      },
    ]);
  });

  it('leaves out statements that did not run, keeps the costliest `size`, and says nothing without operations', () => {
    const idle = counters('paygrid_accounts_bench', 'SELECT 1', 5, 1);
    const before = new Map([['3:idle', idle]]);
    const after = new Map([
      ['3:idle', idle],
      ['1:a', counters('paygrid_acquiring_bench', 'INSERT INTO a', 2, 9)],
      ['1:b', counters('paygrid_acquiring_bench', 'UPDATE b', 2, 3)],
    ]);

    expect(statementShares(before, after, 1, '_bench', 1).map((share) => share.statement)).toEqual([
      'INSERT INTO a',
    ]);
    expect(statementShares(before, after, 0, '_bench')).toEqual([]);
  });
});

describe('censusSection', () => {
  it('names each figure by rank, database and statement, and keeps table pipes out of the name', () => {
    const section = censusSection([
      {
        database: 'acquiring',
        statement: "SELECT a || 'x' FROM t",
        msPerOperation: 0.37,
        callsPerOperation: 0.79,
        plansPerCall: 0.05,
        blocksPerCall: 48,
        walBytesPerOperation: 4010,
      },
    ]);
    expect(section).toEqual({
      "01 acquiring: SELECT a // 'x' FROM t":
        '0.37 ms, 0.79 calls, 4010 WAL bytes per op; 0.05 plans, 48 buffers per call',
    });
  });
});
