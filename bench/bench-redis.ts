import Redis from 'ioredis';
import { localRedisServerUrl, redisUrlOnDatabase } from '@paygrid/local-stack';
import { waitFor } from '@paygrid/testing';

/** The bench stack's Redis logical database (integration tests use 11, e2e 12, chaos 14). */
export const BENCH_REDIS_DATABASE = 13;

export function benchRedisUrl(serverUrl: string): string {
  return redisUrlOnDatabase(serverUrl, BENCH_REDIS_DATABASE);
}

/**
 * Empties the bench's Redis database before a run, as the bench recreates its Postgres databases, and returns
 * how many keys it held. Each run leaves its idempotency records behind (24 h retention; ~280,000 from the
 * http section alone): over a day of runs the database grew to 5.3 million keys and 5 GB, and the echo's
 * figures with it moved by a quarter between runs of the same code (docs/performance.md §35).
 *
 * FLUSHDB ASYNC frees the keys on Redis' background thread, so Redis keeps answering the other databases'
 * clients; the bench then waits until that thread is done, so its freeing (22 s of a core for 5.3 million
 * keys) does not overlap the measurements.
 */
export async function emptyBenchRedis(serverUrl = localRedisServerUrl()): Promise<number> {
  const redis = new Redis(benchRedisUrl(serverUrl), { maxRetriesPerRequest: 2 });
  try {
    const keys = await redis.dbsize();
    await redis.flushdb('ASYNC');
    await waitFor(async () => lazyFreePendingOf(await redis.info('memory')) === 0, {
      timeoutMs: 300_000,
      intervalMs: 250,
      what: "Redis' background thread to free the bench database's keys",
    });
    return keys;
  } finally {
    redis.disconnect();
  }
}

/** `lazyfree_pending_objects` of an INFO reply: objects Redis' background thread has still to free. */
export function lazyFreePendingOf(info: string): number {
  const match = /^lazyfree_pending_objects:(\d+)\r?$/m.exec(info);
  if (!match) throw new Error('INFO memory has no lazyfree_pending_objects (Redis 4 or later has it)');
  return Number(match[1]);
}
