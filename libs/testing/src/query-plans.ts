import { Executor } from '@paygrid/platform';

/**
 * An executor that plans instead of running: each statement a repository sends through it is sent as
 * `EXPLAIN <statement>` with its parameters (so Postgres plans it as it would, writing nothing), its plan
 * kept in `plans`, and an empty result returned to the caller. For tests of which index a statement uses
 * under given statistics: run the repository method with it, then read the plans.
 */
export function planningExecutor(target: Executor): { plans: string[]; executor: Executor } {
  const plans: string[] = [];
  return {
    plans,
    executor: {
      async query<T = unknown>(sql: string, params?: unknown[]): Promise<T> {
        const rows = (await target.query(`EXPLAIN ${sql}`, params)) as { 'QUERY PLAN': string }[];
        plans.push(rows.map((row) => row['QUERY PLAN']).join('\n'));
        return [] as T;
      },
    },
  };
}

/** A node of `EXPLAIN (ANALYZE, FORMAT JSON)`: the counts this module reads, and its children. */
interface AnalyzedNode {
  'Node Type': string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  Plans?: AnalyzedNode[];
}

/** One statement's `EXPLAIN (ANALYZE, FORMAT JSON)`: its plan, and `JIT` when Postgres compiled it. */
export interface AnalyzedPlan {
  Plan: AnalyzedNode;
  JIT?: unknown;
}

/**
 * An executor that runs each statement under `EXPLAIN (ANALYZE, FORMAT JSON)`: the statement executes (its
 * writes happen) and the caller gets an empty result, while `rowsHandled` keeps, per statement, how many rows
 * its plan's nodes produced or filtered out, summed over every loop (and `plans` the plans themselves). That
 * count is the work the statement did, whatever the machine's speed: a test of "this stays the same size as the
 * backlog grows" reads it rather than a duration (a quadratic plan handles millions of rows where a keyed one
 * handles a few). It does not see index entries a scan walks past on a condition that cannot bound it (a range
 * on a middle column of the index): a test of such a scan reads the plan's shape instead.
 */
export function rowCountingExecutor(target: Executor): {
  rowsHandled: number[];
  plans: AnalyzedPlan[];
  executor: Executor;
} {
  const rowsHandled: number[] = [];
  const plans: AnalyzedPlan[] = [];
  return {
    rowsHandled,
    plans,
    executor: {
      async query<T = unknown>(sql: string, params?: unknown[]): Promise<T> {
        const rows = (await target.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params)) as {
          'QUERY PLAN': [AnalyzedPlan];
        }[];
        const plan = rows[0]['QUERY PLAN'][0];
        plans.push(plan);
        rowsHandled.push(handled(plan.Plan));
        return [] as T;
      },
    },
  };
}

/** Every node type of an analyzed plan ("Index Scan", "Bitmap Heap Scan", ...), parents first. */
export function nodeTypesOf(plan: AnalyzedPlan): string[] {
  const types: string[] = [];
  const visit = (node: AnalyzedNode) => {
    types.push(node['Node Type']);
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(plan.Plan);
  return types;
}

function handled(node: AnalyzedNode): number {
  const perLoop =
    node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Join Filter'] ?? 0);
  return perLoop * node['Actual Loops'] + (node.Plans ?? []).reduce((sum, child) => sum + handled(child), 0);
}
