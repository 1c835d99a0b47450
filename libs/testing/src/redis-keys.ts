import Redis from 'ioredis';
import { testRedisUrl } from './env';

/**
 * Deletes every Redis key under a prefix of ours (a test's BullMQ queue, never anyone else's keys): what a
 * FLUSHALL does to that queue. Returns how many keys went.
 */
export async function deleteRedisKeys(prefix: string, redisUrl = testRedisUrl()): Promise<number> {
  if (!prefix) throw new Error('deleteRedisKeys needs a non-empty prefix');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}
