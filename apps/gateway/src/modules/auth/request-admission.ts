import { Inject, Injectable } from '@nestjs/common';
import { REVOKED_KEYS_REDIS_KEY } from '@paygrid/contracts';
import { Errors, luaScript, REDIS_SCRIPTS, RedisScripts } from '@paygrid/platform';
import { CLAIM_FUNCTION, ClaimResult, claimArguments, claimResultOf, NewRecord, redisKeyOf } from '../idempotency/idempotency.store';

/**
 * The one Redis round trip of an authenticated request (docs/gateway.md): the key's revocation, the account's
 * rate-limit counter (fixed one-second window, decisions §4) and, when the AuthGuard already knows every other
 * check passes, the idempotency claim. One script, so the claim is written only when the key is not revoked
 * and the request is within the limit: a refused request never leaves a record behind, and the errors keep
 * their order (authentication before idempotency). Sent on the app's lean scripts connection, with the
 * idempotency store's scripts (one socket: see idempotency.store.ts); each event-loop turn's scripts leave in
 * one write.
 */
const ADMIT = `${CLAIM_FUNCTION}
local revoked = redis.call('SISMEMBER', KEYS[1], ARGV[1])
local count = redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], 2)
if not KEYS[3] or revoked == 1 or count > tonumber(ARGV[2]) then return {revoked, count} end
return {revoked, count, claim(KEYS[3], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9])}`;

export interface Admission {
  revoked: boolean;
  requestsThisSecond: number;
  /** Set when a claim was asked for and the request was neither revoked nor over the limit. */
  claim?: ClaimResult;
}

// One script with or without the claim's key: every key it touches is declared, as Redis asks of a script.
const ADMIT_SCRIPT = luaScript(ADMIT);

@Injectable()
export class RequestAdmission {
  constructor(@Inject(REDIS_SCRIPTS) private readonly redis: RedisScripts) {}

  async admit(keyId: string, accountId: string, limitPerSecond: number, claim?: NewRecord): Promise<Admission> {
    const windowKey = `paygrid:ratelimit:${accountId}:${Math.floor(Date.now() / 1000)}`;
    let reply: unknown[];
    try {
      reply = (await (claim
        ? this.redis.run(ADMIT_SCRIPT, [REVOKED_KEYS_REDIS_KEY, windowKey, redisKeyOf(claim.key)], [keyId, limitPerSecond, ...claimArguments(claim)])
        : this.redis.run(ADMIT_SCRIPT, [REVOKED_KEYS_REDIS_KEY, windowKey], [keyId, limitPerSecond]))) as unknown[];
    } catch {
      throw Errors.unauthorized('token dependencies unavailable');
    }
    return {
      revoked: reply[0] === 1,
      requestsThisSecond: Number(reply[1]),
      claim: reply[2] === undefined ? undefined : claimResultOf(reply[2]),
    };
  }
}
