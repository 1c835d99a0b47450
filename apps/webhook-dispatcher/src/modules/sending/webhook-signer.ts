import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@paygrid/contracts';

/**
 * The headers of one delivery attempt (decisions §8, wire-compat §13.1):
 * - `x-wk-timestamp` (Unix seconds) and `x-wk-signature`: lower-case hex HMAC-SHA512 keyed with the
 *   OLDEST active secret as a UTF-8 string, over the raw body followed directly by the timestamp (what the
 *   official SDKs verify). The SDK's verifier takes one secret and this header holds one signature, so
 *   during a rotation's overlap it stays on the secret receivers already hold and moves to the new one
 *   exactly when the overlap ends (`previous_secret_expire_time`): a receiver switches when it is ready;
 * - the Standard Webhooks headers `webhook-id` (the event id, stable across retries, the receiver's
 *   dedupe key), `webhook-timestamp` and `webhook-signature`: `v1,<base64 HMAC-SHA256>` over
 *   `${id}.${timestamp}.${body}` keyed with the base64-decoded part of the secret after `whsec_`, one
 *   entry per active secret (space separated), so during a rotation both the old and the new secret verify.
 */
export const USER_AGENT = 'Paygrid-Webhooks/1.0';
const SECRET_BYTES = 24;

export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The key bytes a Standard Webhooks verifier derives from the secret. */
export function standardWebhooksKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? secret.slice(WEBHOOK_SECRET_PREFIX.length)
    : secret;
  return Buffer.from(encoded, 'base64');
}

export interface SigningInput {
  eventId: string;
  body: string;
  /** Active secrets, newest first; at least one. The last one signs `x-wk-signature`. */
  secrets: readonly string[];
  timestampSeconds: number;
}

export function signedHeaders(input: SigningInput): Record<string, string> {
  if (input.secrets.length === 0)
    throw new Error('an endpoint without an active secret cannot be signed for');
  const timestamp = String(input.timestampSeconds);
  const oldest = input.secrets[input.secrets.length - 1];
  const legacy = createHmac('sha512', oldest)
    .update(input.body + timestamp, 'utf8')
    .digest('hex');
  const standard = input.secrets
    .map((secret) => {
      const mac = createHmac('sha256', standardWebhooksKey(secret))
        .update(`${input.eventId}.${timestamp}.${input.body}`, 'utf8')
        .digest('base64');
      return `v1,${mac}`;
    })
    .join(' ');
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-wk-timestamp': timestamp,
    'x-wk-signature': legacy,
    'webhook-id': input.eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': standard,
  };
}
