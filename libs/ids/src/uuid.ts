/**
 * Why: some ids must be uuids on the wire. Account, card and product ids are uuid v4 per the spec, and
 * idempotency keys are checked the way the official SDKs check them. Where we choose a uuid for our own rows,
 * v7 (RFC 9562) keeps btree inserts append-mostly because it leads with a millisecond timestamp.
 *
 * Validators take `unknown` and accept only the canonical 8-4-4-4-12 hex form, either case, with nothing around
 * it (no braces, no urn:uuid:, no whitespace): exactly what a Postgres uuid cast accepts among
 * hyphenated forms, so a value that passes never fails the cast.
 */
import { randomUUID } from 'node:crypto';
import { EntropyOptions, createMonotonicSource } from './monotonic';

const ANY_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Version nibble 4 and RFC variant (8, 9, a, b), case-insensitive: the SDKs' idempotency-key check. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** A random uuid v4, lower case (node:crypto). */
export function uuidV4(): string {
  return randomUUID();
}

/** Any uuid in canonical text form, including the nil and max uuids. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && ANY_UUID.test(value);
}

export function isUuidV4(value: unknown): value is string {
  return typeof value === 'string' && UUID_V4.test(value);
}

export function isUuidV7(value: unknown): value is string {
  return typeof value === 'string' && UUID_V7.test(value);
}

export interface UuidV7Generator {
  uuidV7(): string;
}

/**
 * RFC 9562 §5.7 layout: 48-bit ms timestamp, version 7, 12 bits rand_a, variant 10, 62 bits rand_b. rand_a and
 * rand_b together are the 74-bit monotonic random field (§6.2 method 2), so ids from one process strictly
 * increase.
 */
export function createUuidV7Generator(options: EntropyOptions = {}): UuidV7Generator {
  const next = createMonotonicSource(74, options);
  return {
    uuidV7(): string {
      const { timeMs, random } = next();
      const randA = random >> 62n;
      const randB = random & ((1n << 62n) - 1n);
      const hex =
        BigInt(timeMs).toString(16).padStart(12, '0') +
        (0x7000n | randA).toString(16) +
        ((0b10n << 62n) | randB).toString(16);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
}

const defaultV7 = createUuidV7Generator();

/** A time-ordered uuid v7, lower case. */
export function uuidV7(): string {
  return defaultV7.uuidV7();
}

/** When a uuid v7 was minted. Throws TypeError for anything else. */
export function uuidV7Timestamp(value: string): Date {
  if (!isUuidV7(value)) throw new TypeError(`not a uuid v7: ${JSON.stringify(value)}`);
  return new Date(parseInt(value.slice(0, 8) + value.slice(9, 13), 16));
}
