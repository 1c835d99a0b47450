import { createHmac, timingSafeEqual } from 'node:crypto';
import { ReceivedWebhook } from '@paygrid/testing';

/**
 * How two receivers check a delivery, written from their specifications: the official SDK's
 * `constructEvent` (wire-compat §13.1: hex HMAC-SHA512 keyed with the secret string over raw body +
 * `x-wk-timestamp`) and a Standard Webhooks verifier (any `v1,` entry of `webhook-signature`: base64
 * HMAC-SHA256 keyed with the base64 part of the secret, over `${webhook-id}.${webhook-timestamp}.${body}`).
 * Timestamps are not checked here: the tests look at deliveries moments after they arrive.
 */
const headerOf = (request: ReceivedWebhook, name: string) => String(request.headers[name] ?? '');

function sameBytes(given: Buffer, expected: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function officialSdkAccepts(request: ReceivedWebhook, secret: string): boolean {
  const mac = createHmac('sha512', secret).update(
    request.rawBody + headerOf(request, 'x-wk-timestamp'),
    'utf8',
  );
  return sameBytes(Buffer.from(headerOf(request, 'x-wk-signature'), 'hex'), mac.digest());
}

export function standardWebhooksAccepts(request: ReceivedWebhook, secret: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${headerOf(request, 'webhook-id')}.${headerOf(request, 'webhook-timestamp')}.${request.rawBody}`;
  const expected = createHmac('sha256', key).update(signed, 'utf8').digest();
  return headerOf(request, 'webhook-signature')
    .split(' ')
    .some((entry) => entry.startsWith('v1,') && sameBytes(Buffer.from(entry.slice(3), 'base64'), expected));
}
