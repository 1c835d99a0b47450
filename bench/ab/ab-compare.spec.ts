import { comparePairs, median, pairedTable, runOrder, RunFigures } from './ab-compare';

describe('runOrder', () => {
  it('alternates which arm opens each pair, so a steady drift favours neither', () => {
    expect(runOrder(1)).toEqual(['A', 'B']);
    expect(runOrder(3)).toEqual(['A', 'B', 'B', 'A', 'A', 'B']);
  });

  it('refuses a count of pairs that is not a whole number from 1', () => {
    expect(() => runOrder(0)).toThrow(/pairs/);
    expect(() => runOrder(1.5)).toThrow(/pairs/);
    expect(() => runOrder(Number.NaN)).toThrow(/pairs/);
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('comparePairs', () => {
  const order = runOrder(3); // A B | B A | A B

  it('reads each figure pair by pair, whichever arm ran first in the pair', () => {
    const cpu = [20, 18, 30, 33, 17, 18];
    const [row] = comparePairs(
      [{ label: 'cpu', better: 'lower' }],
      order,
      cpu.map((value) => ({ cpu: value })),
    );
    expect(row.a).toEqual([20, 33, 17]);
    expect(row.b).toEqual([18, 30, 18]);
    expect(row.medianA).toBe(20);
    expect(row.medianB).toBe(18);
    // Changes: -10 %, -9.09 %, +5.88 %; their median is the second.
    expect(row.medianChange).toBeCloseTo(-0.0909, 4);
    expect(row.bBetter).toBe(2);
    expect(row.pairs).toBe(3);
  });

  it('counts a higher figure as better where higher is better', () => {
    const [row] = comparePairs(
      [{ label: 'rate', better: 'higher' }],
      order,
      [1, 2, 2, 1, 1, 2].map((rate) => ({ rate })),
    );
    expect(row.bBetter).toBe(3);
    expect(row.medianChange).toBe(1);
  });

  it('leaves out of the pairs a figure one run of the pair did not produce', () => {
    const runs: RunFigures[] = [{ x: 1 }, { x: 2 }, { x: 5 }, {}, { x: 1 }, { x: 3 }];
    const [row] = comparePairs([{ label: 'x', better: 'lower' }], order, runs);
    expect(row.a).toEqual([1, 1]);
    expect(row.b).toEqual([2, 5, 3]);
    expect(row.pairs).toBe(2);
    expect(row.bBetter).toBe(0);
  });

  it('judges nothing for a figure without a direction', () => {
    const [row] = comparePairs(
      [{ label: 'base', better: 'none' }],
      ['A', 'B'],
      [{ base: 1000 }, { base: 1500 }],
    );
    expect(row.bBetter).toBe(0);
    expect(pairedTable([row])).toContain('| base | none | 1000 | 1500 | 1000 | 1500 | +50.0 % | – |');
  });

  it('refuses runs that do not match the order', () => {
    expect(() => comparePairs([], order, [{}])).toThrow(/1 runs for an order of 6/);
  });
});

describe('pairedTable', () => {
  it('shows every run, the medians, the median change and the pairs B won', () => {
    const rows = comparePairs(
      [{ label: 'cpu', better: 'lower' }],
      ['A', 'B', 'B', 'A'],
      [{ cpu: 12 }, { cpu: 11 }, { cpu: 10.5 }, { cpu: 12.25 }],
    );
    // Changes: (11 − 12) / 12 = −8.3 % and (10.5 − 12.25) / 12.25 = −14.3 %; their median −11.3 %.
    expect(pairedTable(rows).split('\n')[2]).toBe(
      '| cpu | lower | 12, 12.25 | 11, 10.5 | 12.125 | 10.75 | -11.3 % | 2 of 2 pairs |',
    );
  });
});
