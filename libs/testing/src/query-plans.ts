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
