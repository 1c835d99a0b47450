import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { from, lastValueFrom, Observable, of, throwError } from 'rxjs';
import { isUuid } from '@paygrid/ids';
import { ApiError, envelopeA, LOGGER } from '@paygrid/platform';
import { AuthenticatedRequest, authOf } from '../../common/authenticated-request';
import { ClaimRequest, IdempotencyService, PreparedClaim } from './idempotency.service';
import { ClaimResult, RequestIdentity } from './idempotency.store';

/**
 * Idempotency for every authenticated POST (decisions §3), so routes stay one line: the key is
 * required and must be a uuid; it is claimed before the route runs, the route's outcome (a result, or
 * a refusal under 500) is stored and replayed with `x-idempotent-replayed: true`, and only an unknown
 * outcome (no reply, internal failure) leaves the record open for a retry to complete with the same
 * command id. A request refused before anything ran (its body failed validation) stores nothing.
 *
 * The record is settled behind the answer, not before it (docs/gateway.md, "Settling the record behind the
 * answer"): the settling script is queued before the response is written, on the connection every later script
 * of this gateway is queued on (ioredis sends that queue in order), so a retry the client sends after reading
 * the answer finds it settled; the answer does not wait for Redis to say so. A settle that fails leaves the
 * record locked until its lock expires: a retry then takes it over with the same command id and the service
 * answers from its command ledger.
 *
 * A POST that only reads (the spec has a few) opts out with `@ReadOnlyPost()`. It is attached per route by
 * `@ApiRoute({kind: 'command'})`, not globally (see api-route.decorator.ts).
 */
export const REPLAYED_HEADER = 'x-idempotent-replayed';
export const READ_ONLY_POST = 'paygrid:read-only-post';
export const ReadOnlyPost = () => SetMetadata(READ_ONLY_POST, true);

/** What the interceptor hands the route: the command id its one command must carry. */
export interface IdempotencyClaim {
  key: string;
  commandId: string;
  /** Set when the route sent its command: from then on a refusal is an outcome worth storing. */
  executed: boolean;
}

/** A claim the AuthGuard already wrote in its Redis round trip (modules/auth/request-admission.ts). */
export interface AdmittedClaim {
  prepared: PreparedClaim;
  result: ClaimResult;
}

type ClaimedRequest = AuthenticatedRequest & { idempotency?: IdempotencyClaim; admittedClaim?: AdmittedClaim };

export function admitClaim(request: AuthenticatedRequest, claim: AdmittedClaim): void {
  (request as ClaimedRequest).admittedClaim = claim;
}

export function idempotencyClaimOf(request: AuthenticatedRequest): IdempotencyClaim | undefined {
  return (request as ClaimedRequest).idempotency;
}

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly reflector: Reflector,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<ClaimedRequest>();
    if (request.method !== 'POST' || !request.auth) return next.handle();
    // A claim admitted by the AuthGuard was made only for a route that is not read-only (route-auth.ts).
    const admitted = request.admittedClaim;
    if (!admitted && this.reflector.getAllAndOverride<boolean>(READ_ONLY_POST, [context.getHandler(), context.getClass()])) {
      return next.handle();
    }
    // An admitted claim was made for the request's usable key: not parsed again.
    const key = admitted ? admitted.prepared.record.key : idempotencyKeyOf(request);
    const claim = admitted
      ? this.idempotency.decide(admitted.prepared, admitted.result)
      : await this.idempotency.claim(claimRequestOf(request, key, authOf(request).actor.account_id));
    if (claim.kind === 'replay') {
      void context.switchToHttp().getResponse<FastifyReply>().header(REPLAYED_HEADER, 'true');
      const stored = JSON.parse(claim.body);
      if (claim.status >= 400) return throwError(() => new ApiError(claim.status, stored));
      return of(stored);
    }
    const { owner } = claim;
    const held: IdempotencyClaim = { key, commandId: claim.commandId, executed: false };
    request.idempotency = held;
    return from(this.execute(next, held, owner));
  }

  /**
   * The route's one result (every command route answers one value) answered, its record settled behind it; a
   * failure likewise. A promise rather than a chain of operators (mergeMap, from, catchError): the rxjs
   * subscribers and promises of that chain were ~2 % of the gateway's CPU per echo (--cpu-prof).
   */
  private async execute(next: CallHandler, held: IdempotencyClaim, owner: RequestIdentity): Promise<unknown> {
    let result: unknown;
    try {
      result = await lastValueFrom(next.handle());
    } catch (error) {
      this.settleBehind(held, this.settleFailure(held, owner, error));
      throw error;
    }
    this.settleBehind(held, this.idempotency.complete(held.key, owner, 200, JSON.stringify(result)));
    return result;
  }

  /** Queues the script that settles the record, synchronously: ahead of anything a later request sends. */
  private settleFailure(claim: IdempotencyClaim, owner: RequestIdentity, error: unknown): Promise<void> {
    if (!claim.executed) return this.idempotency.forget(claim.key, owner);
    if (error instanceof ApiError && error.status < 500) {
      return this.idempotency.complete(claim.key, owner, error.status, JSON.stringify(error.body));
    }
    return this.idempotency.release(claim.key, owner);
  }

  /** The settle's outcome, off the answer's path: a failure is logged, never the request's error. */
  private settleBehind(claim: IdempotencyClaim, settling: Promise<void>): void {
    settling.catch((error: unknown) => {
      this.logger.warn(
        { err: error, idempotency_key: claim.key, command_id: claim.commandId },
        'idempotency record not settled; it stays locked until its lock expires, then a retry takes it over',
      );
    });
  }
}

/**
 * Spec 7.1 names one code for every key that is not usable: `invalid_key_format` ("not a non-empty string up
 * to 255 characters"), so a missing or empty key is refused exactly like a malformed one, as an
 * `idempotency_error` (the SDKs raise IdempotencyError for it, never retried). The uuid rule is the one of
 * libs/ids (canonical form, any version), which also bounds the length.
 */
export function idempotencyKeyOf(request: AuthenticatedRequest): string {
  const key = usableIdempotencyKeyOf(request);
  if (key !== undefined) return key;
  const header = request.headers['x-idempotency-key'];
  if (((Array.isArray(header) ? header[0] : header) ?? '') === '') {
    throw envelopeA('idempotency_error', 'invalid_key_format', 'x-idempotency-key header is required on POST: a uuid');
  }
  throw envelopeA('idempotency_error', 'invalid_key_format', 'x-idempotency-key must be a uuid');
}

/** The key when the request carries a usable one; undefined where idempotencyKeyOf would refuse it. */
export function usableIdempotencyKeyOf(request: AuthenticatedRequest): string | undefined {
  const header = request.headers['x-idempotency-key'];
  const key = Array.isArray(header) ? header[0] : header;
  return key && isUuid(key) ? key.toLowerCase() : undefined;
}

/** What a claim is made of: the acting account, the route (its path without query string) and the body. */
export function claimRequestOf(request: AuthenticatedRequest, key: string, accountId: string): ClaimRequest {
  return { key, accountId, method: request.method, path: request.url.split('?')[0], body: request.body };
}
