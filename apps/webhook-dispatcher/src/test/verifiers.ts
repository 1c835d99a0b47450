import { createHmac, timingSafeEqual } from 'node:crypto';
import { IncomingHttpHeaders } from 'node:http';

/**
 * Two independent receivers' verification rules, written from their specifications (no dispatcher code):
 * - the official SDK's `client.webhooks.constructEvent` (wire-compat §13.1): hex HMAC-SHA512 keyed with the
 *   secret string over raw body + `x-wk-timestamp`, compared in constant time, timestamp within ±300 s;
 * - a generic Standard Webhooks verifier (standardwebhooks.com): base64 HMAC-SHA256 keyed with the
 *   base64-decoded secret after `whsec_`, over `${webhook-id}.${webhook-timestamp}.${body}`, any of the
 *   space-separated `v1,<sig>` entries, timestamp within ±300 s.
 */
export const TOLERANCE_SECONDS = 300;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function sdkVerifies(
  rawBody: string,
  headers: IncomingHttpHeaders,
  secret: string,
  nowSeconds: number,
): boolean {
  const signature = header(headers, 'x-wk-signature');
  const timestamp = header(headers, 'x-wk-timestamp');
  if (!signature || !timestamp) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha512', secret)
    .update(rawBody + timestamp, 'utf8')
    .digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function standardWebhooksVerifies(
  rawBody: string,
  headers: IncomingHttpHeaders,
  secret: string,
  nowSeconds: number,
): boolean {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) return false;
  const sentAt = Number(timestamp);
  if (!Number.isInteger(sentAt) || Math.abs(nowSeconds - sentAt) > TOLERANCE_SECONDS) return false;
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`, 'utf8').digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
