import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Logger } from 'pino';
import { APP_CONFIG, ApiError, envelopeA, LOGGER } from '@paygrid/platform';
import { GatewayConfig } from '../../config';
import { IdempotencyRepository } from './idempotency.repository';

/**
 * Idempotency as decisions §3 defines it. A key is claimed before the command is sent; the final
 * response (success or refusal) is stored and replayed byte for byte; a concurrent duplicate gets
 * `request_being_processed`. The command id is derived from (account, key), so when a gateway dies
 * mid-request or a reply times out, the retry that takes the record over re-sends the same command id
 * and the service answers with what it already did instead of doing it twice.
 */
export type Claim = { kind: 'execute'; commandId: string } | { kind: 'replay'; status: number; body: string };

export interface ClaimRequest {
  key: string;
  accountId: string;
  method: string;
  path: string;
  body: unknown;
}

const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

@Injectable()
export class IdempotencyService implements OnApplicationBootstrap, OnApplicationShutdown {
  private pruner?: NodeJS.Timeout;
  private readonly lockMs: number;

  constructor(
    private readonly records: IdempotencyRepository,
    @Inject(APP_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    // Longer than a command may take, so a live request is never taken over by its own retry.
    this.lockMs = config.COMMAND_TIMEOUT_MS + 2000;
  }

  onApplicationBootstrap(): void {
    this.pruner = setInterval(() => void this.prune(), PRUNE_INTERVAL_MS);
    this.pruner.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.pruner);
  }

  async claim(request: ClaimRequest): Promise<Claim> {
    const commandId = commandIdFor(request.accountId, request.key);
    const requestHash = hashBody(request.body);
    const record = { ...request, requestHash, commandId, lockMs: this.lockMs };
    if (await this.records.insertProcessing(record)) return { kind: 'execute', commandId };
    if (await this.records.reclaimExpired(record, this.config.IDEMPOTENCY_RETENTION_HOURS)) {
      return { kind: 'execute', commandId };
    }

    const existing = await this.records.find(request.key);
    if (!existing) return this.claim(request); // pruned between our insert and read
    if (existing.account_id !== request.accountId) {
      throw idempotencyError('key_mismatch_account', 'This idempotency key was used by another account');
    }
    if (existing.method !== request.method || existing.path !== request.path) {
      throw idempotencyError(
        'key_mismatch_api',
        'This idempotency key was used on another endpoint or method',
      );
    }
    if (existing.request_hash !== requestHash) {
      throw idempotencyError(
        'key_mismatch_params',
        'This idempotency key was used with a different request body',
      );
    }
    if (existing.state === 'completed') {
      return {
        kind: 'replay',
        status: existing.response_status ?? 200,
        body: existing.response_body ?? '{}',
      };
    }
    if (await this.records.takeOver(request.key, this.lockMs)) {
      return { kind: 'execute', commandId: existing.command_id };
    }
    throw idempotencyError('request_being_processed', 'The request is processing, retry with the same body');
  }

  complete(key: string, status: number, body: string): Promise<void> {
    return this.records.complete(key, status, body);
  }

  release(key: string): Promise<void> {
    return this.records.release(key);
  }

  /** Nothing ran under this claim (the request was refused before execution): store nothing. */
  forget(key: string): Promise<void> {
    return this.records.forget(key);
  }

  private async prune(): Promise<void> {
    try {
      const removed = await this.records.pruneOlderThan(this.config.IDEMPOTENCY_RETENTION_HOURS);
      if (removed > 0) this.logger.info({ removed }, 'pruned idempotency records');
    } catch (error) {
      this.logger.warn({ err: error }, 'idempotency pruning failed; will retry next hour');
    }
  }
}

export function commandIdFor(accountId: string, key: string): string {
  return `cmd_${createHash('sha256').update(`${accountId}\n${key}`).digest('hex').slice(0, 40)}`;
}

/** Stable across key order, so two SDKs serialising the same params differently still match. */
export function hashBody(body: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(body ?? {}))
    .digest('hex');
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
