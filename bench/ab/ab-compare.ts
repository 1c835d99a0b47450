/**
 * The arithmetic of `npm run bench:ab` (ab-run.ts): in which order two builds run, and what their runs say.
 *
 * Why it exists: on this VM the same build's CPU per create moves by half between two runs minutes apart
 * (docs/performance.md §29–§31), more than any change of the last rounds. Only builds run close together,
 * alternately, compare. The order is A B, B A, A B, … : each pair is two neighbouring runs, and a drift that
 * is linear over the session favours neither arm. A change is read pair by pair (its sign in each pair, the
 * median of its relative size), not from the difference of two averages that one slow run can swing.
 */

export type Arm = 'A' | 'B';

/** Figures a run is compared by, each with the direction that counts as better (none: shown, not judged). */
export interface Figure {
  label: string;
  better: 'higher' | 'lower' | 'none';
}

/** One bench run's values by figure label (a figure the run did not produce is absent). */
export type RunFigures = Record<string, number>;

export interface PairedRow {
  label: string;
  better: Figure['better'];
  a: number[];
  b: number[];
  medianA: number | null;
  medianB: number | null;
  /** Median over the complete pairs of (b − a) / a, as a fraction. */
  medianChange: number | null;
  /** Complete pairs in which B was better, and how many pairs had both values. */
  bBetter: number;
  pairs: number;
}

/** The arms of `pairs` pairs in run order: A B, B A, A B, … */
export function runOrder(pairs: number): Arm[] {
  if (!Number.isInteger(pairs) || pairs < 1)
    throw new Error(`pairs must be a whole number ≥ 1, got ${pairs}`);
  const order: Arm[] = [];
  for (let pair = 0; pair < pairs; pair++)
    order.push(...(pair % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)));
  return order;
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Compares the runs of both arms pair by pair. `runs` holds each run's figures in run order (the order
 * `runOrder` gave); run 2k and 2k + 1 are pair k.
 */
export function comparePairs(figures: Figure[], order: Arm[], runs: RunFigures[]): PairedRow[] {
  if (runs.length !== order.length) throw new Error(`${runs.length} runs for an order of ${order.length}`);
  return figures.map(({ label, better }) => {
    const a: number[] = [];
    const b: number[] = [];
    const changes: number[] = [];
    let bBetter = 0;
    let pairs = 0;
    for (let first = 0; first + 1 < order.length; first += 2) {
      const [runA, runB] =
        order[first] === 'A' ? [runs[first], runs[first + 1]] : [runs[first + 1], runs[first]];
      const [va, vb] = [runA[label], runB[label]];
      if (va !== undefined) a.push(va);
      if (vb !== undefined) b.push(vb);
      if (va === undefined || vb === undefined) continue;
      pairs++;
      if (va !== 0) changes.push((vb - va) / va);
      if ((better === 'higher' && vb > va) || (better === 'lower' && vb < va)) bBetter++;
    }
    return {
      label,
      better,
      a,
      b,
      medianA: median(a),
      medianB: median(b),
      medianChange: median(changes),
      bBetter,
      pairs,
    };
  });
}

const shown = (value: number | null) => (value === null ? '–' : String(Number(value.toFixed(3))));

/** The comparison as a markdown table, one row a figure. */
export function pairedTable(rows: PairedRow[]): string {
  const lines = [
    '| figure | better | A runs | B runs | median A | median B | median change B vs A (pairs) | B better in |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const change =
      row.medianChange === null
        ? '–'
        : `${row.medianChange >= 0 ? '+' : ''}${(row.medianChange * 100).toFixed(1)} %`;
    const verdict = row.better === 'none' ? '–' : `${row.bBetter} of ${row.pairs} pairs`;
    lines.push(
      `| ${row.label} | ${row.better} | ${row.a.map(shown).join(', ')} | ${row.b.map(shown).join(', ')} | ${shown(row.medianA)} | ${shown(row.medianB)} | ${change} | ${verdict} |`,
    );
  }
  return lines.join('\n');
}
