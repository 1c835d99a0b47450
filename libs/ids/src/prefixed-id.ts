/**
 * Why: ids we mint are read by people (logs, dashboards, support tickets) and sorted by databases, so they carry
 * their type as a prefix and their creation time up front: `pi_01J8Z3K4W5X6Y7Z8A9B0C1D2E3`.
 *
 * Guarantees: `<prefix>_<body>`; prefix is 1-9 of [a-z0-9] starting with a letter, so the whole id is at most
 * 36 characters (the spec's limit); body is 26 Crockford base32 characters (upper case, no I, L, O, U): 10 for a
 * 48-bit millisecond timestamp, 16 for 80 random bits from node:crypto (ULID layout). Ids with the same prefix
 * sort lexicographically by creation time, and strictly in mint order within one process (see monotonic.ts).
 * Ids are identifiers, not secrets: authorisation never rests on one being hard to guess.
 */
import { EntropyOptions, createMonotonicSource } from './monotonic';

/** The prefixes in use, one spelling per concept. newId accepts others that follow the rules. */
export const ID_PREFIXES = Object.freeze({
  paymentIntent: 'pi',
  paymentAttempt: 'att',
  refund: 're',
  event: 'evt',
  customer: 'cus',
  payout: 'po',
  webhookEndpoint: 'whep',
  webhookDelivery: 'del',
  command: 'cmd',
} as const);

export type KnownIdPrefix = (typeof ID_PREFIXES)[keyof typeof ID_PREFIXES];
export type PrefixedId<P extends string = string> = `${P}_${string}`;

export const MAX_ID_LENGTH = 36;
const BODY_LENGTH = 26;
export const MAX_PREFIX_LENGTH = MAX_ID_LENGTH - BODY_LENGTH - 1;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const PREFIX = /^[a-z][a-z0-9]*$/;
/** First body character is 0-7: 10 base32 characters hold 50 bits, of which the timestamp uses 48. */
const BODY = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const ANY_ID = /^([a-z][a-z0-9]{0,8})_([0-7][0-9A-HJKMNP-TV-Z]{25})$/;

export function isValidIdPrefix(prefix: unknown): prefix is string {
  return typeof prefix === 'string' && prefix.length <= MAX_PREFIX_LENGTH && PREFIX.test(prefix);
}

export interface IdGenerator {
  newId<P extends string>(prefix: P): PrefixedId<P>;
}

/** A generator with its own clock and monotonic state; production code uses the module-level newId. */
export function createIdGenerator(options: EntropyOptions = {}): IdGenerator {
  const next = createMonotonicSource(80, options);
  return {
    newId<P extends string>(prefix: P): PrefixedId<P> {
      assertPrefix(prefix);
      const { timeMs, random } = next();
      return `${prefix}_${encode(BigInt(timeMs), 10)}${encode(random, 16)}`;
    },
  };
}

const defaultGenerator = createIdGenerator();

/** Mints `<prefix>_<26-char time-sortable body>`; throws RangeError for a prefix that breaks the rules. */
export function newId<P extends string>(prefix: P): PrefixedId<P> {
  return defaultGenerator.newId(prefix);
}

/** True when `value` is an id of exactly this prefix, in canonical (upper-case body) form. */
export function isId<P extends string>(value: unknown, prefix: P): value is PrefixedId<P> {
  if (typeof value !== 'string' || !isValidIdPrefix(prefix)) return false;
  return value.startsWith(`${prefix}_`) && BODY.test(value.slice(prefix.length + 1));
}

/** The prefix of any well-formed id, or undefined. */
export function idPrefix(value: unknown): string | undefined {
  return typeof value === 'string' ? ANY_ID.exec(value)?.[1] : undefined;
}

/** When the id was minted (millisecond precision). Throws TypeError if `id` is not a well-formed id. */
export function idTimestamp(id: string): Date {
  const body = typeof id === 'string' ? ANY_ID.exec(id)?.[2] : undefined;
  if (body === undefined) throw new TypeError(`not a prefixed id: ${JSON.stringify(id)}`);
  let ms = 0;
  for (const char of body.slice(0, 10)) ms = ms * 32 + CROCKFORD.indexOf(char);
  return new Date(ms);
}

function assertPrefix(prefix: string): void {
  if (!isValidIdPrefix(prefix)) {
    throw new RangeError(
      `id prefix must be 1-${MAX_PREFIX_LENGTH} characters of [a-z0-9] starting with a letter, got ${JSON.stringify(prefix)}`,
    );
  }
}

function encode(value: bigint, length: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < length; i += 1) {
    out = CROCKFORD.charAt(Number(rest & 31n)) + out;
    rest >>= 5n;
  }
  return out;
}
