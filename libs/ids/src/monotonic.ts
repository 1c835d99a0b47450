/**
 * Why: ids minted in one process must sort in mint order even when several share a millisecond or the wall
 * clock steps back (NTP). This source hands out (timestamp, random) pairs that strictly increase: a new
 * millisecond draws fresh randomness; the same (or an earlier) millisecond reuses the last timestamp and adds a
 * random step of 1..2^32 to the last random value, so the successor of a known id is not guessable. If the
 * random field would overflow, the timestamp advances by one millisecond.
 */
import { randomFillSync } from 'node:crypto';

export interface EntropyOptions {
  /** Milliseconds since the Unix epoch; injectable so tests need not wait for the clock. */
  now?: () => number;
  /** Cryptographically secure bytes; injectable for deterministic tests. */
  randomBytes?: (size: number) => Uint8Array;
}

export interface MonotonicSample {
  timeMs: number;
  random: bigint;
}

const MAX_TIMESTAMP_MS = 2 ** 48 - 1;
const STEP_BYTES = 4;

/**
 * Random bytes for ids come from a pool the CSPRNG fills 4 KB at a time. `crypto.randomBytes` per id allocated a
 * buffer and called into OpenSSL for ten bytes: 1.45 µs of the 2.65 µs an id took, and ids are minted on every
 * hot path (intents, attempts, jobs, deliveries). From the pool an id takes 1.1 µs (docs/performance.md §34).
 * The bytes are the same CSPRNG's, each handed out once.
 */
const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let poolOffset = POOL_SIZE;

/** `size` fresh random bytes: a view into the pool, overwritten by a later refill, so read it at once. */
export function takeRandomBytes(size: number): Uint8Array {
  if (!Number.isSafeInteger(size) || size < 0 || size > POOL_SIZE) {
    throw new RangeError(`cannot take ${size} random bytes`);
  }
  if (poolOffset + size > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + size);
  poolOffset += size;
  return bytes;
}

export function createMonotonicSource(
  randomBits: number,
  options: EntropyOptions = {},
): () => MonotonicSample {
  const now = options.now ?? Date.now;
  const bytes = options.randomBytes ?? takeRandomBytes;
  const randomBytesNeeded = Math.ceil(randomBits / 8);
  const randomMask = (1n << BigInt(randomBits)) - 1n;
  let lastTime = -1;
  let lastRandom = 0n;

  const fresh = (): bigint => toBigInt(bytes(randomBytesNeeded)) & randomMask;

  return () => {
    const clock = now();
    if (!Number.isSafeInteger(clock) || clock < 0) throw new RangeError(`clock returned ${clock}`);
    if (clock > lastTime) {
      lastTime = clock;
      lastRandom = fresh();
    } else {
      const next = lastRandom + 1n + toBigInt(bytes(STEP_BYTES));
      if (next > randomMask) {
        lastTime += 1;
        lastRandom = fresh();
      } else {
        lastRandom = next;
      }
    }
    if (lastTime > MAX_TIMESTAMP_MS) throw new RangeError('timestamp does not fit in 48 bits');
    return { timeMs: lastTime, random: lastRandom };
  };
}

function toBigInt(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}
