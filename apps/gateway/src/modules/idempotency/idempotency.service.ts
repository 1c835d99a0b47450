import { Inject, Injectable } from '@nestjs/common';
import { createHmac, createSecretKey, hash, KeyObject } from 'node:crypto';
import { APP_CONFIG, ApiError, envelopeA } from '@paygrid/platform';
import { GatewayConfig } from '../../config';
import { ClaimResult, IdempotencyStore, NewRecord, RequestIdentity } from './idempotency.store';

/**
 * Idempotency as decisions §3 defines it. A key is claimed before the command is sent; the final
 * response (success or refusal) is stored and replayed byte for byte; a concurrent duplicate gets
 * `request_being_processed`. The command id is derived from (account, key), so when a gateway dies
 * mid-request or a reply times out, the retry that takes the record over re-sends the same command id
 * and the service answers with what it already did instead of doing it twice.
 *
 * The record lives in Redis (idempotency.store.ts), not in a database: the services' command ledgers are
 * the durable record of every effect, so the gateway's only has to answer fast (claim, mismatch, replay).
 * A record Redis loses costs a re-sent command id, which the ledger answers; never a second effect.
 */
export type Claim =
  | { kind: 'execute'; commandId: string; owner: RequestIdentity }
  | { kind: 'replay'; status: number; body: string };

export interface PreparedClaim {
  owner: RequestIdentity;
  record: NewRecord;
}

/** What canonicalJson makes of an absent or empty body. */
const EMPTY_BODY = '{}';

export interface ClaimRequest {
  key: string;
  accountId: string;
  method: string;
  path: string;
  body: unknown;
}

@Injectable()
export class IdempotencyService {
  private readonly lockMs: number;
  private readonly retentionMs: number;
  /** A KeyObject, made once: HMAC with a Buffer key re-imports the key on every request. */
  private readonly hashKey: KeyObject;
  /**
   * The hash of an empty body (`{}`, or none), made once: a third of the command routes take no body (capture,
   * cancel, the echo…) and an HMAC object per request was ~3 % of the gateway's CPU per echo (--cpu-prof).
   */
  private readonly emptyBodyHash: string;

  constructor(
    private readonly records: IdempotencyStore,
    @Inject(APP_CONFIG) config: GatewayConfig,
  ) {
    // Longer than a command may take, so a live request is never taken over by its own retry.
    this.lockMs = config.COMMAND_TIMEOUT_MS + 2000;
    this.retentionMs = config.IDEMPOTENCY_RETENTION_HOURS * 3600 * 1000;
    this.hashKey = createSecretKey(requestHashKey(config.CARD_TRANSPORT_KEY));
    this.emptyBodyHash = hashCanonical(EMPTY_BODY, this.hashKey);
  }

  async claim(request: ClaimRequest): Promise<Claim> {
    const prepared = this.prepare(request);
    return this.decide(prepared, await this.records.claim(prepared.record));
  }

  /** The record a claim writes, without writing it: the authentication round trip may carry it (AuthGuard). */
  prepare(request: ClaimRequest): PreparedClaim {
    const { accountId, method, path, key } = request;
    const canonical = canonicalJson(request.body ?? {});
    const requestHash =
      canonical === EMPTY_BODY ? this.emptyBodyHash : hashCanonical(canonical, this.hashKey);
    const owner: RequestIdentity = { accountId, method, path, requestHash };
    // Spelled out rather than spread from owner: a spread was ~2 % of the gateway's CPU per echo (--cpu-prof).
    const record: NewRecord = {
      accountId,
      method,
      path,
      requestHash,
      key,
      commandId: commandIdFor(accountId, key),
      lockMs: this.lockMs,
      retentionMs: this.retentionMs,
    };
    return { owner, record };
  }

  /** What the claim found, as the request's answer: execute it, replay, or an idempotency_error. */
  decide({ owner, record }: PreparedClaim, result: ClaimResult): Claim {
    if (result.kind === 'claimed') return { kind: 'execute', commandId: record.commandId, owner };
    if (result.kind === 'taken_over') return { kind: 'execute', commandId: result.commandId, owner };

    const existing = result.record;
    if (existing.accountId !== owner.accountId) {
      throw idempotencyError('key_mismatch_account', 'This idempotency key was used by another account');
    }
    if (existing.method !== owner.method || existing.path !== owner.path) {
      throw idempotencyError(
        'key_mismatch_api',
        'This idempotency key was used on another endpoint or method',
      );
    }
    if (existing.requestHash !== owner.requestHash) {
      throw idempotencyError(
        'key_mismatch_params',
        'This idempotency key was used with a different request body',
      );
    }
    if (existing.response) return { kind: 'replay', ...existing.response };
    throw idempotencyError('request_being_processed', 'The request is processing, retry with the same body');
  }

  complete(key: string, owner: RequestIdentity, status: number, body: string): Promise<void> {
    return this.records.complete(key, owner, status, body);
  }

  release(key: string, owner: RequestIdentity): Promise<void> {
    return this.records.release(key, owner);
  }

  /** Nothing ran under this claim (the request was refused before execution): store nothing. */
  forget(key: string, owner: RequestIdentity): Promise<void> {
    return this.records.forget(key, owner);
  }
}

export function commandIdFor(accountId: string, key: string): string {
  // One-shot hash (Node ≥ 20.12): the same digest as createHash(...).update(...).digest(), without the stream object.
  return `cmd_${hash('sha256', `${accountId}\n${key}`, 'hex').slice(0, 40)}`;
}

/**
 * Stable across key order, so two SDKs serialising the same params differently still match. Keyed
 * (HMAC), because a body may hold a card number and CVC: an unkeyed hash of one is a guessable stand-in
 * for the card (architecture rule 7), and the record lives in Redis.
 */
export function hashBody(body: unknown, key: Buffer | KeyObject): string {
  return hashCanonical(canonicalJson(body ?? {}), key);
}

function hashCanonical(canonical: string, key: Buffer | KeyObject): string {
  return createHmac('sha256', key).update(canonical).digest('hex');
}

/**
 * A key of its own for the request hash, derived from the card transport key (the secret that already
 * guards card data at the gateway) so that no new secret has to be deployed. Rotating that key changes
 * every hash: a retry spanning the rotation is refused with key_mismatch_params (docs/gateway.md).
 */
export function requestHashKey(cardTransportKey: Buffer): Buffer {
  return createHmac('sha256', cardTransportKey).update('paygrid idempotency request hash').digest();
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function idempotencyError(code: string, message: string): ApiError {
  return envelopeA('idempotency_error', code, message);
}
