import { Inject, Injectable, OnModuleInit, SetMetadata } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { isUuid } from '@paygrid/ids';
import { envelopeA, LOGGER, PreparedAnswer } from '@paygrid/platform';
import { AuthenticatedRequest, authOf } from '../../common/authenticated-request';
import { Claim, ClaimRequest, IdempotencyService, PreparedClaim } from './idempotency.service';
import { ClaimResult, RequestIdentity } from './idempotency.store';

/**
 * Idempotency for every authenticated POST that writes (decisions §3), so routes stay one line: the key is
 * required and must be a uuid; it is claimed before the route runs, the route's answer (a result, or a
 * refusal under 500) is stored and replayed with `x-idempotent-replayed: true`, and only an unknown outcome
 * (no reply, internal failure) leaves the record open for a retry to complete with the same command id. A
 * request refused before its command was sent (its body failed validation) stores nothing.
 *
 * Two halves, neither of them a Nest interceptor (an interceptor of any kind costs ~25 µs a request in Nest
 * 11, a sixth of an idempotent echo: docs/performance.md §26):
 * - before the route: `hold`, called by the AuthGuard as its last step (the claim usually rode on the
 *   guard's own Redis round trip, request-admission.ts). A replay, a mismatch or a request in progress is
 *   thrown: a replay as a PreparedAnswer the global filter writes byte for byte;
 * - after it: `settle`, from Fastify's onSend hook, which every answer passes (result or refusal, from any
 *   guard, pipe or route after the claim) with its status and serialised body, before it is written.
 *
 * The record is settled behind the answer, not before it (docs/gateway.md, "Settling the record behind the
 * answer"): the settling script is queued before the response is written, on the connection every later script
 * of this gateway is queued on (one socket, sent and answered in order), so a retry the client sends after reading
 * the answer finds it settled; the answer does not wait for Redis to say so. A settle that fails leaves the
 * record locked until its lock expires: a retry then takes it over with the same command id and the service
 * answers from its command ledger.
 *
 * A command route is marked by `@ApiRoute({kind: 'command'})` (IDEMPOTENT_COMMAND); a POST of that kind that
 * only reads (the spec has a few) opts out with `@ReadOnlyPost()`.
 */
export const REPLAYED_HEADER = 'x-idempotent-replayed';
export const READ_ONLY_POST = 'paygrid:read-only-post';
export const ReadOnlyPost = () => SetMetadata(READ_ONLY_POST, true);
export const IDEMPOTENT_COMMAND = 'paygrid:idempotent-command';
export const IdempotentCommand = () => SetMetadata(IDEMPOTENT_COMMAND, true);

const REPLAYED_HEADERS = { [REPLAYED_HEADER]: 'true' };

/** What the gate hands the route: the command id its one command must carry. */
export interface IdempotencyClaim {
  key: string;
  commandId: string;
  /** Set when the route sent its command: from then on a refusal is an outcome worth storing. */
  executed: boolean;
  /** Whose record it is, for settling it. */
  owner: RequestIdentity;
}

/** A claim the AuthGuard already wrote in its Redis round trip (modules/auth/request-admission.ts). */
export interface AdmittedClaim {
  prepared: PreparedClaim;
  result: ClaimResult;
}

type ClaimedRequest = AuthenticatedRequest & { idempotency?: IdempotencyClaim };

export function idempotencyClaimOf(request: AuthenticatedRequest): IdempotencyClaim | undefined {
  return (request as ClaimedRequest).idempotency;
}

@Injectable()
export class IdempotencyGate implements OnModuleInit {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The settling half hangs on Fastify's onSend, before the app is ready (routes are built with it at ready). */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onSend', (request, reply, payload, done) => {
      this.settle(request as AuthenticatedRequest, reply.statusCode, payload);
      done(null, payload);
    });
  }

  /**
   * Claims the request's key for its authenticated, acting account, or answers from the claim the admission
   * script already made (`admitted`; synchronous then: no promise on the hot path). Throws what the claim
   * found instead of an execution: a PreparedAnswer for a replay, an idempotency_error otherwise.
   */
  hold(request: AuthenticatedRequest, admitted: AdmittedClaim | undefined): void | Promise<void> {
    if (admitted) return this.holdAs(request, admitted.prepared.record.key, this.idempotency.decide(admitted.prepared, admitted.result));
    const key = idempotencyKeyOf(request);
    return this.idempotency
      .claim(claimRequestOf(request, key, authOf(request).actor.account_id))
      .then((claim) => this.holdAs(request, key, claim));
  }

  private holdAs(request: AuthenticatedRequest, key: string, claim: Claim): void {
    if (claim.kind === 'replay') throw new PreparedAnswer(claim.status, claim.body, REPLAYED_HEADERS);
    (request as ClaimedRequest).idempotency = { key, commandId: claim.commandId, executed: false, owner: claim.owner };
  }

  /**
   * Settles the request's claim with the answer about to be written, once: a success or a refusal under 500 of a
   * sent command is stored; any other refusal of a sent command releases the record (outcome unknown: a retry
   * re-sends the same command id); a refusal before the command was sent forgets it (nothing ran). Queued
   * synchronously, ahead of anything a later request sends; not awaited.
   */
  settle(request: AuthenticatedRequest, status: number, payload: unknown): void {
    const claim = (request as ClaimedRequest).idempotency;
    if (!claim) return;
    (request as ClaimedRequest).idempotency = undefined;
    this.settling(claim, status, bodyText(payload)).catch((error: unknown) => {
      this.logger.warn(
        { err: error, idempotency_key: claim.key, command_id: claim.commandId },
        'idempotency record not settled; it stays locked until its lock expires, then a retry takes it over',
      );
    });
  }

  private settling(claim: IdempotencyClaim, status: number, body: string | undefined): Promise<void> {
    const isOutcome = status < 400 || (claim.executed && status < 500);
    if (isOutcome && body !== undefined) return this.idempotency.complete(claim.key, claim.owner, status, body);
    // An answer not known as text (never one of a command route) is treated like an unknown outcome.
    if (isOutcome || claim.executed) return this.idempotency.release(claim.key, claim.owner);
    return this.idempotency.forget(claim.key, claim.owner);
  }
}

/** The serialised answer as Fastify hands it to onSend (a JSON string for every command route). */
function bodyText(payload: unknown): string | undefined {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined;
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
