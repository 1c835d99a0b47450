import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { REVOKED_KEYS_REDIS_KEY } from '@paygrid/contracts';
import { REDIS } from '@paygrid/platform';

/**
 * The gateway's view of revoked keys: a Redis set of key ids (REVOKED_KEYS_REDIS_KEY) it checks on
 * every request, so a revocation (and any token issued for the key) stops working at once.
 *
 * Postgres stays the source of truth: this set only ever grows (re-sync adds, never removes), so a
 * boot that races a revocation on another instance cannot drop a revoked id from it.
 */
const CHUNK = 1000;

@Injectable()
export class RevokedKeysSet {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async add(keyIds: readonly string[]): Promise<void> {
    for (let start = 0; start < keyIds.length; start += CHUNK) {
      await this.redis.sadd(REVOKED_KEYS_REDIS_KEY, ...keyIds.slice(start, start + CHUNK));
    }
  }

  async contains(keyId: string): Promise<boolean> {
    return (await this.redis.sismember(REVOKED_KEYS_REDIS_KEY, keyId)) === 1;
  }
}
