import { DataSource, EntityManager } from 'typeorm';
import { Logger } from 'pino';
import { runInTransaction } from './transaction-context';

/**
 * A data source whose one connection answers every statement at once, COMMIT with its tag: what
 * runInTransaction does around the work is under test, not Postgres (the int spec has that).
 */
function committingDataSource(): DataSource {
  const client = {
    query: async (sql: string) => ({ command: sql === 'COMMIT' ? 'COMMIT' : 'SELECT', rows: [] }),
  };
  const manager = { query: async () => [] } as unknown as EntityManager;
  const runner = { connect: async () => client, manager, release: async () => undefined };
  return { createQueryRunner: () => runner } as unknown as DataSource;
}

function recordingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  return {
    logger: { warn: (_fields: object, message: string) => warnings.push(message) } as unknown as Logger,
    warnings,
  };
}

describe('runInTransaction after-commit hooks', () => {
  it('returns without waiting for an asynchronous hook, having started every hook in order', async () => {
    const started: string[] = [];
    let finishEnqueue!: () => void;
    const { logger } = recordingLogger();
    const result = await runInTransaction(committingDataSource(), logger, async (tx) => {
      tx.afterCommit(() => {
        started.push('enqueue');
        return new Promise<void>((resolve) => (finishEnqueue = resolve));
      });
      tx.afterCommit(() => started.push('mark done'));
      return 'committed';
    });
    expect(result).toBe('committed');
    // The enqueue has not finished, yet the synchronous hook after it already ran.
    expect(started).toEqual(['enqueue', 'mark done']);
    finishEnqueue();
  });

  it('logs a hook that fails, synchronously or not, and still answers the committed result', async () => {
    const { logger, warnings } = recordingLogger();
    let rejected!: Promise<void>;
    const result = await runInTransaction(committingDataSource(), logger, async (tx) => {
      tx.afterCommit(() => {
        throw new Error('redis down');
      });
      tx.afterCommit(() => (rejected = Promise.reject(new Error('redis timeout'))));
      return 42;
    });
    expect(result).toBe(42);
    await rejected.catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toHaveLength(2);
  });

  it('starts no hook when the work throws (nothing committed)', async () => {
    const { logger } = recordingLogger();
    const started: string[] = [];
    await expect(
      runInTransaction(committingDataSource(), logger, async (tx) => {
        tx.afterCommit(() => started.push('enqueue'));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(started).toEqual([]);
  });
});
