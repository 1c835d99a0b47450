import { randomUUID } from 'node:crypto';
import { SANDBOX_SEED_DEFAULTS } from '@paygrid/contracts';
import { E2E_API } from './stack-settings';

/**
 * A small HTTP client for the e2e suites, speaking to the gateway the way the official SDKs do
 * (wire-compat §1.2): JSON bodies, `x-auth-token: Bearer …`, a uuid `x-idempotency-key` per POST.
 */
export const SANDBOX = SANDBOX_SEED_DEFAULTS;
export type SandboxAccount = (typeof SANDBOX)[keyof typeof SANDBOX];

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, for malformed-body tests. */
  rawBody?: string;
  headers?: Record<string, string>;
  idempotencyKey?: string | null;
}

export async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.token) headers['x-auth-token'] = `Bearer ${options.token}`;
  if (method === 'POST' && options.idempotencyKey !== null) {
    headers['x-idempotency-key'] = options.idempotencyKey ?? randomUUID();
  }
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const response = await fetch(`${E2E_API}${path}`, { method, headers, body, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: tests assert on text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

const tokens = new Map<string, { token: string; expiresAt: number }>();

/** A token for a sandbox account, cached like the SDKs cache it. */
export async function tokenFor(account: SandboxAccount): Promise<string> {
  const cached = tokens.get(account.clientId);
  if (cached && cached.expiresAt - 60 > Date.now() / 1000) return cached.token;
  const response = await api<{ auth_token: string; expired_at: number }>('POST', '/v1/connect/token', {
    headers: { 'x-client-id': account.clientId, 'x-api-key': account.apiKey },
    idempotencyKey: null,
  });
  if (response.status !== 200) throw new Error(`token for ${account.clientId}: ${response.status} ${response.text}`);
  tokens.set(account.clientId, { token: response.body.auth_token, expiresAt: response.body.expired_at });
  return response.body.auth_token;
}

/** Envelope A `{type, code, message}` or envelope B `{code: number, message}` (spec section 7). */
export function isEnvelope(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const candidate = body as Record<string, unknown>;
  if (typeof candidate.message !== 'string') return false;
  const envelopeA = typeof candidate.type === 'string' && typeof candidate.code === 'string';
  const envelopeB = candidate.type === undefined && typeof candidate.code === 'number';
  return envelopeA || envelopeB;
}
