/**
 * Why: pg returns bigint columns as strings (a JS number would lose digits), and the ledger's counterpart
 * balances may legitimately sum past @paygrid/money's per-amount cap, so ledger reads parse them here: exact,
 * uncapped, and loud on anything that is not an integer (that is corrupt data, not input).
 */
const INTEGER = /^-?(0|[1-9][0-9]{0,18})$/;

export function bigintFromDb(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'string' && INTEGER.test(value)) return BigInt(value);
  throw new TypeError(`expected a bigint column value, got ${JSON.stringify(value)}`);
}

/** timestamptz read either by pg (Date) or from json_build_object (ISO text). */
export function dateFromDb(value: unknown): Date {
  const date = value instanceof Date ? value : new Date(String(value));
  if (Number.isNaN(date.getTime())) throw new TypeError(`expected a timestamp, got ${JSON.stringify(value)}`);
  return date;
}

/** jsonb read by pg (already parsed) or as text. */
export function jsonFromDb<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
