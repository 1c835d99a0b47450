import { Inject, Injectable } from '@nestjs/common';
import { luaScript, REDIS_SCRIPTS, RedisScripts } from '@paygrid/platform';

/**
 * The gateway's idempotency records, in Redis: one hash per key, `paygrid:idempotency:<key>`, that
 * expires with the retention period (so no pruning job). Each operation is one Lua script, one round
 * trip: the claim must read, decide and write atomically (a lock that expired is taken over by exactly
 * one retry), and the writes after it must not re-create a record Redis has dropped (it would then live
 * without an expiry). Lock times use Redis' clock, the one clock every gateway replica shares.
 *
 * The scripts run on the app's lean scripts connection (libs/platform redis-scripts.ts), where the admission
 * script runs too: one socket, so a record's settling and a retry's claim run in the order they were issued.
 *
 * Fields: account, method, path, hash (the keyed request hash), command, locked_until (ms, while
 * processing), status and body (once completed). No request body is stored, only its keyed hash.
 */
export const IDEMPOTENCY_KEY_PREFIX = 'paygrid:idempotency:';

export interface RequestIdentity {
  accountId: string;
  method: string;
  path: string;
  requestHash: string;
}

export interface NewRecord extends RequestIdentity {
  key: string;
  commandId: string;
  lockMs: number;
  retentionMs: number;
}

export interface StoredRecord extends RequestIdentity {
  commandId: string;
  /** Set once the request completed: its final status and body. */
  response?: { status: number; body: string };
}

/** What a claim found: a fresh record, an expired lock of the same request taken over, or someone else's record. */
export type ClaimResult = { kind: 'claimed' } | { kind: 'taken_over'; commandId: string } | { kind: 'held'; record: StoredRecord };

const NOW_MS = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// The same request (account, method, path, hash) whose holder released it or died takes the lock over;
// anything else is returned for the service to answer (mismatch, replay or request_being_processed).
// A Lua function, so the authentication round trip can run it too (modules/auth/request-admission.ts).
export const CLAIM_FUNCTION = `local function claim(key, account, method, path, hash, command, lockMs, retentionMs)
${NOW_MS}
local r = redis.call('HMGET', key, 'account', 'method', 'path', 'hash', 'command', 'locked_until', 'status', 'body')
if not r[1] then
  redis.call('HSET', key, 'account', account, 'method', method, 'path', path, 'hash', hash, 'command', command,
    'locked_until', now + tonumber(lockMs))
  redis.call('PEXPIRE', key, retentionMs)
  return {'claimed'}
end
if not r[7] and r[1] == account and r[2] == method and r[3] == path and r[4] == hash and tonumber(r[6]) <= now then
  redis.call('HSET', key, 'locked_until', now + tonumber(lockMs))
  return {'taken_over', r[5]}
end
return {'held', r[1], r[2], r[3], r[4], r[5], r[7], r[8]}
end`;

const CLAIM = `${CLAIM_FUNCTION}
return claim(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7])`;

// Writes after the claim touch only the record of this request (same account and hash, still
// processing): never a record that expired or was lost and claimed again by a different request.
const OURS = `local r = redis.call('HMGET', KEYS[1], 'account', 'hash', 'status')
if r[1] ~= ARGV[1] or r[2] ~= ARGV[2] or r[3] then return 0 end`;

const COMPLETE = `${OURS}
redis.call('HSET', KEYS[1], 'status', ARGV[3], 'body', ARGV[4])
redis.call('HDEL', KEYS[1], 'locked_until')
return 1`;

const RELEASE = `${OURS}
redis.call('HSET', KEYS[1], 'locked_until', 0)
return 1`;

const FORGET = `${OURS}
redis.call('DEL', KEYS[1])
return 1`;

const SCRIPTS = {
  claim: luaScript(CLAIM),
  complete: luaScript(COMPLETE),
  release: luaScript(RELEASE),
  forget: luaScript(FORGET),
};

@Injectable()
export class IdempotencyStore {
  constructor(@Inject(REDIS_SCRIPTS) private readonly redis: RedisScripts) {}

  async claim(record: NewRecord): Promise<ClaimResult> {
    return claimResultOf(await this.redis.run(SCRIPTS.claim, [redisKeyOf(record.key)], claimArguments(record)));
  }

  async complete(key: string, owner: RequestIdentity, status: number, body: string): Promise<void> {
    await this.redis.run(SCRIPTS.complete, [redisKeyOf(key)], [owner.accountId, owner.requestHash, status, body]);
  }

  /** Lets the next retry take over at once (the command's outcome is unknown, not final). */
  async release(key: string, owner: RequestIdentity): Promise<void> {
    await this.redis.run(SCRIPTS.release, [redisKeyOf(key)], [owner.accountId, owner.requestHash]);
  }

  /** Removes a claim under which nothing ran (the request failed validation): the key is free again. */
  async forget(key: string, owner: RequestIdentity): Promise<void> {
    await this.redis.run(SCRIPTS.forget, [redisKeyOf(key)], [owner.accountId, owner.requestHash]);
  }
}

export function redisKeyOf(key: string): string {
  return `${IDEMPOTENCY_KEY_PREFIX}${key}`;
}

/** The claim function's arguments after its key, in its order. */
export function claimArguments(record: NewRecord): (string | number)[] {
  return [record.accountId, record.method, record.path, record.requestHash, record.commandId, record.lockMs, record.retentionMs];
}

/** What the claim function returned, read. */
export function claimResultOf(reply: unknown): ClaimResult {
  const fields = reply as (string | null)[];
  if (fields[0] === 'claimed') return { kind: 'claimed' };
  if (fields[0] === 'taken_over') return { kind: 'taken_over', commandId: String(fields[1]) };
  const [, accountId, method, path, requestHash, commandId, status, body] = fields.map((field) => field ?? undefined);
  return {
    kind: 'held',
    record: {
      accountId: accountId ?? '',
      method: method ?? '',
      path: path ?? '',
      requestHash: requestHash ?? '',
      commandId: commandId ?? '',
      response: status === undefined ? undefined : { status: Number(status), body: body ?? '{}' },
    },
  };
}
