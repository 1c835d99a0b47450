import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CommandFamily } from '@paygrid/contracts';
import { ApiError, CommandBus, CORRELATION_HEADER, envelopeA } from '@paygrid/platform';
import { AuthenticatedRequest, authOf } from '../../common/authenticated-request';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { COMMAND_BUS } from './command-bus.provider';

/**
 * How controllers reach the services. `query` sends a read command as the acting account. `mutate`
 * wraps a write in idempotency (decisions §3): the key is required and must be a uuid, the outcome
 * is stored and replayed, and only an unknown outcome (no reply, internal failure) leaves the record
 * open for a retry to complete.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const REPLAYED_HEADER = 'x-idempotent-replayed';

@Injectable()
export class ServiceCalls {
  constructor(
    @Inject(COMMAND_BUS) private readonly bus: CommandBus,
    private readonly idempotency: IdempotencyService,
  ) {}

  query<R>(request: AuthenticatedRequest, family: CommandFamily, type: string, payload: unknown): Promise<R> {
    return this.bus.send<R>(family, type, payload, { actor: authOf(request).actor, correlationId: correlationOf(request) });
  }

  /** A write to a service, under idempotency: a retry with the same key re-sends the same command id. */
  mutate<R>(
    request: AuthenticatedRequest,
    reply: FastifyReply,
    family: CommandFamily,
    type: string,
    payload: unknown,
  ): Promise<R> {
    const { actor } = authOf(request);
    return this.idempotently(request, reply, (commandId) =>
      this.bus.send<R>(family, type, payload, { actor, commandId, correlationId: correlationOf(request) }),
    );
  }

  /**
   * Runs `execute` at most once per idempotency key (decisions §3): the outcome is stored and replayed;
   * only an unknown outcome (no reply, internal failure) leaves the record open for a retry to complete.
   */
  async idempotently<R>(
    request: AuthenticatedRequest,
    reply: FastifyReply,
    execute: (commandId: string) => Promise<R>,
  ): Promise<R> {
    const { actor } = authOf(request);
    const key = idempotencyKeyOf(request);
    const claim = await this.idempotency.claim({
      key,
      accountId: actor.account_id,
      method: request.method,
      path: request.url.split('?')[0],
      body: request.body,
    });
    if (claim.kind === 'replay') {
      void reply.header(REPLAYED_HEADER, 'true');
      const stored = JSON.parse(claim.body);
      if (claim.status >= 400) throw new ApiError(claim.status, stored);
      return stored as R;
    }
    try {
      const result = await execute(claim.commandId);
      await this.idempotency.complete(key, 200, JSON.stringify(result));
      return result;
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        await this.idempotency.complete(key, error.status, JSON.stringify(error.body));
      } else {
        await this.idempotency.release(key);
      }
      throw error;
    }
  }
}

export function correlationOf(request: AuthenticatedRequest): string | undefined {
  const value = request.headers[CORRELATION_HEADER];
  return typeof value === 'string' ? value : undefined;
}

export function idempotencyKeyOf(request: AuthenticatedRequest): string {
  const header = request.headers['x-idempotency-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (!key) {
    throw envelopeA(
      'invalid_request_error',
      'invalid_request_error',
      'x-idempotency-key header is required on POST',
    );
  }
  if (key.length > 255 || !UUID.test(key)) {
    throw envelopeA('idempotency_error', 'invalid_key_format', 'x-idempotency-key must be a uuid');
  }
  return key.toLowerCase();
}
