import Redis from 'ioredis';
import pino from 'pino';
import { luaScript, RedisScripts } from '@paygrid/platform';
import { localRedisServerUrl } from '@paygrid/local-stack';

/**
 * What one Lua script call costs the calling process's CPU, through the two Redis clients of the stack
 * (docs/performance.md §35): ioredis' defineCommand on an auto-pipelined connection (how the gateway ran its
 * admission and idempotency scripts before) and the lean scripts connection (RedisScripts, how it runs them
 * now). 64 callers in flight, the argument shape of an idempotency claim, against the Redis at REDIS_URL.
 *
 *   npm run -s build && node -r ./deploy/local/register-paths.js dist/bench/micro/redis-script-call.js
 *
 * A microbenchmark, not a target: it prints µs of this process's CPU per call, three rounds each, alternated.
 */
const LUA = `local r = redis.call('HMGET', KEYS[1], 'account', 'status') return {'claimed', ARGV[1]}`;
const CALLS = 200_000;
const IN_FLIGHT = 64;
const KEY = 'paygrid:bench:redis-script-call';
const ARGS = [
  'acct_0190f0a4',
  'POST',
  '/api/v1/diagnostics/echo',
  'f'.repeat(64),
  'cmd_0190f0a4',
  30_000,
  86_400_000,
];

type Call = () => Promise<unknown>;

async function microsecondsPerCall(call: Call): Promise<number> {
  await call();
  const before = process.cpuUsage();
  let issued = 0;
  const caller = async () => {
    while (issued < CALLS) {
      issued += 1;
      await call();
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, caller));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CALLS;
}

async function main(): Promise<void> {
  const url = localRedisServerUrl();
  const ioredis = new Redis(url, { enableAutoPipelining: true, maxRetriesPerRequest: 2 });
  ioredis.defineCommand('benchScript', { numberOfKeys: 1, lua: LUA });
  const viaIoredis = (
    ioredis as unknown as { benchScript: (...args: unknown[]) => Promise<unknown> }
  ).benchScript.bind(ioredis);
  const scripts = RedisScripts.connect(url, 'bench-redis-script-call', pino({ level: 'silent' }));
  await scripts.whenConnected();
  const script = luaScript(LUA);

  for (let round = 1; round <= 3; round += 1) {
    const before = await microsecondsPerCall(() => viaIoredis(KEY, ...ARGS));
    const now = await microsecondsPerCall(() => scripts.run(script, [KEY], ARGS));
    console.log(
      `round ${round}: ioredis defineCommand ${before.toFixed(2)} µs/call, RedisScripts ${now.toFixed(2)} µs/call`,
    );
  }
  ioredis.disconnect();
  await scripts.close();
}

void main();
